import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

// Each integration file runs in a scope of its own, so that files run side by side: a temp folder (TMPDIR) that holds
// bench's private dirs and the test's own, and a marker in the environment that every process it starts inherits.
// The leak checks look in that scope only (processes.ts, leaks.ts), so another file's servers are never taken for ours.
export const SCOPE_VARIABLE = 'BENCH_TEST_SCOPE';

// a worker runs several files one after another: each new scope goes beside the others, not inside the last one
process.env.BENCH_TEST_TMP_ROOT ??= os.tmpdir();
const scope = mkdtempSync(path.join(process.env.BENCH_TEST_TMP_ROOT, 'benchtest-scope-'));
// as /tmp: servers that switch to another account reach their private dirs under it
chmodSync(scope, 0o1777);
process.env.TMPDIR = scope;
process.env[SCOPE_VARIABLE] = path.basename(scope);

afterAll(() => {
  const left = readdirSync(scope).filter((name) => name.startsWith('bench-'));
  rmSync(scope, { recursive: true, force: true });
  if (left.length > 0) throw new Error(`this file's runs left temp dirs behind: ${left.join(', ')}`);
});
