import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { runProcess, type CliRun } from './cli.js';

/** The k6 bench finds: BENCH_K6_BINARY, PATH, or where `go install` put it. */
export const k6Path = (): string =>
  process.env.BENCH_K6_BINARY ??
  (spawnSync('sh', ['-c', 'command -v k6'], { encoding: 'utf8' }).stdout.trim() || path.join(homedir(), 'go', 'bin', 'k6'));

/**
 * Runs the k6 commands of an export's README (one per generator), all at once on this machine, each after the lines
 * the README puts before them (its secrets read into the environment); returns their runs.
 */
export async function runExportReadme(out: string): Promise<CliRun[]> {
  const readme = readFileSync(path.join(out, 'README.md'), 'utf8');
  const lines = readme.split('\n');
  const parts = lines.filter((line) => line.startsWith('k6 run '));
  const before = lines.filter((line) => line.startsWith('set -a;'));
  return Promise.all(
    parts.map((line) =>
      runProcess('bash', ['-c', [...before, line.replace(/^k6 /, `"${k6Path()}" `)].join('\n')], { cwd: out, timeoutMs: 60_000 }),
    ),
  );
}
