import { chownSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

export const runningAsRoot = (): boolean => process.getuid?.() === 0;

type Account = { user: string; group: string; uid: number; gid: number };
let cachedAccount: { account: Account | undefined } | undefined;

/**
 * The unprivileged account web-server workers switch to when bench runs as root (Apache refuses
 * to serve as root). Its private directory is handed to that account, so it stays 0700. Looked up
 * once per process.
 */
export function workerAccount(): Account | undefined {
  if (!runningAsRoot()) return undefined;
  cachedAccount ??= { account: lookUpWorkerAccount() };
  return cachedAccount.account;
}

function lookUpWorkerAccount(): Account | undefined {
  for (const user of ['www-data', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
      const group = execFileSync('id', ['-gn', user], { encoding: 'utf8' }).trim();
      return { user, group, uid, gid };
    } catch {
      // no such account
    }
  }
  return undefined;
}

/** Gives a private dir and everything in it to the account (no-op when there is none). */
export function handDirTo(dir: string, account: { uid: number; gid: number } | undefined): void {
  if (!account) return;
  chownSync(dir, account.uid, account.gid);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    chownSync(path.join(entry.parentPath, entry.name), account.uid, account.gid);
  }
}
