import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processStartTime } from './proc-table.js';
import { reaperForgetDir, reaperTrackDir } from './reaper.js';

// Each private dir names the process that made it, so a later run can tell a dead run's dir from a live one's.
const OWNER_FILE = '.bench-owner';

/** A fresh directory only this user can read (0700), for generated configs, sockets and data. */
export function makePrivateDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `bench-${prefix}-`));
  chmodSync(dir, 0o700);
  reaperTrackDir(dir);
  writeFileSync(path.join(dir, OWNER_FILE), `${process.pid} ${processStartTime(process.pid) ?? 0}\n`);
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  reaperForgetDir(dir);
}

function ownerAlive(dir: string): boolean | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(dir, OWNER_FILE), 'utf8');
  } catch {
    return undefined; // not a dir bench made (or not ours to read)
  }
  const [pid, started] = text.trim().split(' ').map(Number);
  if (!pid) return undefined;
  const now = processStartTime(pid);
  return now !== undefined && now === started;
}

/** Removes the private dirs of earlier runs whose runner is gone; returns what it removed. */
export function removeStaleDirs(root: string = os.tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root).filter((name) => name.startsWith('bench-'));
  } catch {
    return removed;
  }
  for (const name of names) {
    const dir = path.join(root, name);
    if (ownerAlive(dir) !== false) continue;
    try {
      rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // another user's dir: theirs to remove
    }
  }
  return removed;
}
