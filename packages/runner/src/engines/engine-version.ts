import { spawnSync } from 'node:child_process';
import { findBinary, isExecutable } from '@bench/targets';

/** An engine's program: BENCH_<NAME>_BINARY when set (a build of your own, or one outside PATH), else from PATH. */
export function engineBinary(name: string): string | undefined {
  const override = process.env[`BENCH_${name.toUpperCase()}_BINARY`];
  if (override === undefined) return findBinary(name);
  if (!override.includes('/')) return findBinary(override);
  return isExecutable(override) ? override : undefined;
}

/** First match of `pattern` in what `binary args` prints on stdout and stderr, or 'unknown'. */
export function versionOfBinary(binary: string, args: readonly string[], pattern: RegExp): string {
  const run = spawnSync(binary, [...args], { encoding: 'utf8', timeout: 5000 });
  return pattern.exec(`${run.stdout ?? ''}${run.stderr ?? ''}`)?.[1] ?? 'unknown';
}
