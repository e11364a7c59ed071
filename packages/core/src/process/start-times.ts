import { appendFileSync } from 'node:fs';

/** The environment variable naming a file where bench appends a JSON line for each start and load it times. */
export const START_TIMES_VARIABLE = 'BENCH_START_TIMES';

/** What is timed: a target's stack or a backing service starting, a cell's warm-up or its measured load. */
export type TimedKind = 'stack' | 'service' | 'warm-up' | 'load';

/**
 * Runs a start or a load and, when BENCH_START_TIMES names a file, appends a line to it: what ran, how long it took,
 * and the test scope it belongs to (scripts/check/test-times.mjs reads them: where the suite's time goes).
 */
export async function timedStep<T>(kind: TimedKind, name: string, start: () => Promise<T>): Promise<T> {
  const file = process.env[START_TIMES_VARIABLE];
  if (!file) return start();
  const began = performance.now();
  let ok = false;
  try {
    const value = await start();
    ok = true;
    return value;
  } finally {
    const line = { kind, name, ms: Math.round(performance.now() - began), ok, scope: process.env.BENCH_TEST_SCOPE ?? null };
    // best effort: the timing of a start never fails it
    try {
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    } catch {
      /* a file that cannot be written is no reason to stop */
    }
  }
}
