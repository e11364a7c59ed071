import { fileURLToPath } from 'node:url';
import path from 'node:path';

// packages/core/dist/paths.js -> repository root (three levels up).
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

// Where scenario folders live; BENCH_SCENARIOS_DIR lets an app repo bring its own.
export function scenariosDir(): string {
  return process.env.BENCH_SCENARIOS_DIR ? path.resolve(process.env.BENCH_SCENARIOS_DIR) : path.join(repoRoot, 'scenarios');
}
