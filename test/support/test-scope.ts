import { appendFileSync, chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';

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

// The CPU this worker and the processes it reaped (a file's servers, CLIs and their children) used: /proc/self/stat's
// utime, stime, cutime and cstime, in clock ticks of 1/100 s (own: the worker's alone, what the file runs in-process)
function cpuSeconds(): { all: number; own: number } {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  const own = (Number(fields[11]) + Number(fields[12])) / 100;
  return { all: own + (Number(fields[13]) + Number(fields[14])) / 100, own };
}
const began = { cpu: cpuSeconds(), wall: performance.now() };

afterAll(() => {
  // where the suite's time goes, file by file (scripts/check/test-times.mjs), when BENCH_START_TIMES names a file
  const times = process.env.BENCH_START_TIMES;
  if (times) {
    const file = expect.getState().testPath ?? 'unknown';
    const now = cpuSeconds();
    const cpu = Math.round((now.all - began.cpu.all) * 10) / 10;
    const inWorker = Math.round((now.own - began.cpu.own) * 10) / 10;
    const wall = Math.round((performance.now() - began.wall) / 100) / 10;
    appendFileSync(times, `${JSON.stringify({ kind: 'file', file, cpu, inWorker, wall, scope: path.basename(scope) })}\n`);
  }
  const left = readdirSync(scope).filter((name) => name.startsWith('bench-'));
  rmSync(scope, { recursive: true, force: true });
  if (left.length > 0) throw new Error(`this file's runs left temp dirs behind: ${left.join(', ')}`);
});
