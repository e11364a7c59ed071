import { mkdtempSync, rmSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh directory only this user can read (0700), for generated configs, sockets and data. */
export function makePrivateDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `bench-${prefix}-`));
  chmodSync(dir, 0o700);
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
