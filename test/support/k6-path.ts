import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import path from 'node:path';

/** The k6 bench finds: BENCH_K6_BINARY, PATH, or where `go install` put it. */
export const k6Path = (): string =>
  process.env.BENCH_K6_BINARY ??
  (spawnSync('sh', ['-c', 'command -v k6'], { encoding: 'utf8' }).stdout.trim() || path.join(homedir(), 'go', 'bin', 'k6'));
