// Writes every scenario's fixtures into scenarios/<name>/fixtures/ (run by `npm run build`).
// Deterministic: the same bytes on every machine, checked against the manifests' sha256.
import { mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bigBlock,
  escapeBody,
  escapePage,
  includePage,
  includeText,
  INCLUDE_FILES,
  largeBinary,
  loopBody,
  staticPage,
  table9x9,
} from './lib/bodies.js';

// scenarios/dist/generate-fixtures.js -> scenarios/
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function write(scenario: string, file: string, data: string | Buffer): void {
  const dir = path.join(root, scenario, 'fixtures');
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, file);
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  // leave an identical file alone, so repeated builds do not touch timestamps
  if (existsSync(target) && readFileSync(target).equals(bytes)) return;
  writeFileSync(target, bytes);
}

const includeParts = INCLUDE_FILES.map((_, i) => includeText(i + 1));

write('file', 'page.html', staticPage());
write('big', 'block.txt', bigBlock());
write('loop', 'expected.txt', loopBody());
write('table-9x9', 'expected.txt', table9x9());
INCLUDE_FILES.forEach((file, i) => write('include', file, includeParts[i] ?? ''));
write('include', 'expected.txt', includePage(includeParts));
write('large-file', 'sample.bin', largeBinary());
write('escape', 'expected.txt', escapeBody());
write('escape-400', 'expected.txt', escapePage());
