import { findBinary, isExecutable } from '@bench/core';

/** An engine's program: BENCH_<NAME>_BINARY when set (a build of your own, or one outside PATH), else from PATH. */
export function engineBinary(name: string): string | undefined {
  const override = process.env[`BENCH_${name.toUpperCase()}_BINARY`];
  if (override === undefined) return findBinary(name);
  if (!override.includes('/')) return findBinary(override);
  return isExecutable(override) ? override : undefined;
}
