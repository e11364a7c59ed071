// Draws docs/engines.md's conformance table from the columns the conformance tests write:
//   BENCH_CONFORMANCE_DIR=/tmp/conformance npx vitest run test/engines/conformance/
//   node scripts/measure/conformance-table.mjs /tmp/conformance
// A case counted as the server sent it is ✓, a broken one failed by name ✓ (failed); anything else says what differed.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/measure/conformance-table.mjs DIR (the BENCH_CONFORMANCE_DIR of a conformance run)');
  process.exit(2);
}
const order = [
  'wire (native core)',
  'wire (js core)',
  'wire (native core, --rate)',
  'autocannon',
  'open-loop',
  'wrk',
  'ab',
  'k6',
  'h2load',
];
const labels = readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.slice(0, -5))
  .sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
const columns = labels.map((label) => JSON.parse(readFileSync(path.join(dir, `${label}.json`), 'utf8')));
const cell = (verdict) =>
  verdict === 'as sent' ? '✓' : verdict === 'named failure' ? '✓ (failed)' : verdict === undefined ? '' : `✗ ${verdict}`;
const lines = [`| case | ${labels.join(' | ')} |`, `| --- | ${labels.map(() => '---').join(' | ')} |`];
for (const name of Object.keys(columns[0] ?? {})) lines.push(`| ${name} | ${columns.map((column) => cell(column[name])).join(' | ')} |`);
console.log(lines.join('\n'));
