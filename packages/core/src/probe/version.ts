import { spawnSync } from 'node:child_process';

const versions = new Map<string, string>();

/**
 * First match of `pattern` in what `binary args` prints on stdout and stderr together (nginx -v
 * writes to stderr), or 'unknown'. Asked once per process: every start records its versions, and a
 * synchronous probe at each one held up the runner (and the stacks `verify --jobs` starts beside it).
 */
export function versionFrom(binary: string, args: readonly string[], pattern: RegExp): string {
  const key = JSON.stringify([binary, args, pattern.source]);
  let version = versions.get(key);
  if (version === undefined) {
    const run = spawnSync(binary, [...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 5000 });
    version = pattern.exec(`${run.stdout ?? ''}${run.stderr ?? ''}`)?.[1] ?? 'unknown';
    versions.set(key, version);
  }
  return version;
}
