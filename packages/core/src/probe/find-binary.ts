import { accessSync, constants } from 'node:fs';
import path from 'node:path';

const SEARCH_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** Whether this file exists and this process may run it. */
export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Absolute path of an executable on PATH (plus the sbin folders, then `moreDirs`), or undefined. */
export function findBinary(name: string, moreDirs: readonly string[] = []): string | undefined {
  if (path.isAbsolute(name)) return isExecutable(name) ? name : undefined;
  const dirs = [...(process.env.PATH ?? '').split(':').filter(Boolean), ...SEARCH_PATH, ...moreDirs];
  return dirs.map((dir) => path.join(dir, name)).find(isExecutable);
}
