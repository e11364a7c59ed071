import { execFile } from 'node:child_process';
import { findBinary } from '@bench/core';

/** Runs `binary args` and returns the first match of `pattern` in its output, or undefined when missing. */
export function versionOf(binary: string, args: readonly string[], pattern: RegExp): Promise<string | undefined> {
  const file = findBinary(binary);
  if (!file) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    execFile(file, [...args], { timeout: 5000 }, (_error, stdout, stderr) => {
      resolve(pattern.exec(`${stdout}${stderr}`)?.[1] ?? 'unknown');
    });
  });
}
