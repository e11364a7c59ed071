import { execFile, spawnSync } from 'node:child_process';
import { findBinary } from './find-binary.js';

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

/**
 * The same probe without blocking, for a program that may be missing: undefined when `binary` is
 * not found, else what versionFrom gives (asked once per process too).
 */
export async function versionOf(binary: string, args: readonly string[], pattern: RegExp): Promise<string | undefined> {
  const file = findBinary(binary);
  if (!file) return undefined;
  const key = JSON.stringify([file, args, pattern.source]);
  let version = versions.get(key);
  if (version === undefined) {
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
      execFile(file, [...args], { timeout: 5000 }, (_error, out, err) => resolve({ stdout: out, stderr: err })),
    );
    version = pattern.exec(`${stdout}${stderr}`)?.[1] ?? 'unknown';
    versions.set(key, version);
  }
  return version;
}
