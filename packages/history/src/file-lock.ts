import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import { errors } from '@bench/core';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LockOptions {
  /** Give up after this long waiting for another holder. */
  readonly timeoutMs?: number;
  /** A lock older than this is left over from a holder that died (appends take milliseconds). */
  readonly staleMs?: number;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// A lock is stale when its holder (on this host) is gone, or when it is older than staleMs.
async function staleContent(lockFile: string, staleMs: number): Promise<string | undefined> {
  try {
    const [content, info] = await Promise.all([readFile(lockFile, 'utf8'), stat(lockFile)]);
    const [pid, host] = content.split(' ');
    const deadHolder = host === os.hostname() && Number(pid) > 0 && !processAlive(Number(pid));
    return deadHolder || Date.now() - info.mtimeMs > staleMs ? content : undefined;
  } catch {
    return undefined; // gone already, or half written: try again
  }
}

// Moves a stale lock aside; if another process took a fresh lock in between, puts that one back.
async function breakLock(lockFile: string, judged: string): Promise<void> {
  const aside = `${lockFile}.stale-${process.pid}-${Date.now()}`;
  try {
    await rename(lockFile, aside);
  } catch {
    return;
  }
  if ((await readFile(aside, 'utf8').catch(() => judged)) !== judged) await link(aside, lockFile).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

/**
 * Runs `action` holding `lockFile`, a file created exclusively (O_EXCL): another process that wants
 * it waits and retries; a lock left by a holder that died is broken.
 */
export async function withFileLock<T>(lockFile: string, action: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const staleMs = options.staleMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  const content = `${process.pid} ${os.hostname()} ${new Date().toISOString()}`;
  for (;;) {
    try {
      const handle = await open(lockFile, 'wx');
      await handle.writeFile(content);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        throw errors.historyLock(lockFile, `cannot create the lock: ${String(error)}`);
    }
    const stale = await staleContent(lockFile, staleMs);
    if (stale !== undefined) {
      await breakLock(lockFile, stale);
      continue;
    }
    if (Date.now() > deadline)
      throw errors.historyLock(
        lockFile,
        `still locked after ${timeoutMs / 1000} s by another append; remove the lock file if no bench is running`,
      );
    await sleep(10 + Math.random() * 40);
  }
  try {
    return await action();
  } finally {
    await unlink(lockFile).catch(() => undefined);
  }
}
