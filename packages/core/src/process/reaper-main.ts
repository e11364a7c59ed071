// The watcher process: started by the runner in a session of its own, it reads what the runner
// records on a pipe (process groups, private dirs) and, when the pipe closes (the runner ended,
// however it ended: SIGKILL and OOM included, since the kernel closes the pipe), stops every group
// still recorded and removes every dir still recorded, then exits.
import { appendFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { benchCacheDir } from './cache-dir.js';
import { listGroupMembers } from './proc-table.js';
import { setTimeout as sleep } from 'node:timers/promises';

// What a reap did, a line an event, in the cache's watcher.log (the one before it kept as watcher.log.1): which groups
// outlived their TERM, when each dir went and why an rm failed, so a dir found after a dead run can be explained.
const LOG_LIMIT_BYTES = 256 * 1024;
const logDir = benchCacheDir('watcher');
function log(line: string): void {
  if (!logDir) return;
  const file = path.join(logDir, 'watcher.log');
  try {
    if (existsSync(file) && statSync(file).size > LOG_LIMIT_BYTES) renameSync(file, `${file}.1`);
    appendFileSync(file, `${new Date().toISOString()} watcher ${process.pid}: ${line}\n`);
  } catch {
    // a log that cannot be written keeps nothing from being reaped
  }
}

const groups = new Set<number>();
const dirs = new Set<string>();

function apply(line: string): void {
  const space = line.indexOf(' ');
  const verb = line.slice(0, space);
  const value = line.slice(space + 1);
  if (verb === 'group') groups.add(Number(value));
  else if (verb === 'ungroup') groups.delete(Number(value));
  else if (verb === 'dir') dirs.add(value);
  else if (verb === 'undir') dirs.delete(value);
}

function signalAll(signal: NodeJS.Signals): void {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, signal);
    } catch {
      // already gone
    }
  }
}

const alive = () => [...groups].filter((pgid) => listGroupMembers(pgid).length > 0);

async function reap(): Promise<void> {
  if (groups.size > 0 || dirs.size > 0) log(`the runner is gone: ${groups.size} process groups, ${dirs.size} dirs to clear`);
  // a second for servers to end as they would: the runner is gone, and everything they wrote goes with their dirs
  signalAll('SIGTERM');
  const deadline = Date.now() + 1000;
  while (Date.now() < deadline && alive().length > 0) await sleep(50);
  const stubborn = alive();
  if (stubborn.length > 0) log(`groups ${stubborn.join(', ')} outlived SIGTERM by 1 s: SIGKILL`);
  signalAll('SIGKILL');
  const killDeadline = Date.now() + 1500;
  while (Date.now() < killDeadline && alive().length > 0) await sleep(50);
  const left = alive();
  if (left.length > 0) log(`groups ${left.join(', ')} still have members 1.5 s after SIGKILL`);
  await removeDirs(Date.now() + 2000);
  process.exit(0);
}

// A process that died a moment ago may have been writing in its dir, or one not yet dead may write there after it was
// removed (a clean-clone CI run found MariaDB's dir still there 5 s after a SIGKILL of the runner during
// mariadb-install-db, its processes gone, when this removed each dir once): remove every dir until all stay gone or the
// deadline passes. One dir that will not go keeps no other; what is left, the next start of bench removes.
async function removeDirs(deadline: number): Promise<void> {
  const failures = new Map<string, string>();
  const reappeared = new Set<string>();
  for (let attempt = 1; dirs.size > 0; attempt++) {
    for (const dir of dirs) {
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch (error) {
        // tried again below, until the deadline; each distinct reason logged once
        const reason = error instanceof Error ? error.message : String(error);
        if (failures.get(dir) !== reason) log(`rm ${dir} failed (try ${attempt}): ${reason}`);
        failures.set(dir, reason);
      }
    }
    await sleep(100);
    for (const dir of dirs)
      if (!existsSync(dir)) {
        log(`${dir} gone${attempt > 1 ? ` after ${attempt} tries` : ''}`);
        dirs.delete(dir);
      } else if (!failures.has(dir) && !reappeared.has(dir)) {
        // removed without an error, yet there: a process not yet dead wrote in it again
        log(`${dir} is there again after try ${attempt}: something still writes in it`);
        reappeared.add(dir);
      }
    if (Date.now() > deadline) {
      for (const dir of dirs) log(`${dir} left for the next start of bench: still there after ${attempt} tries`);
      return;
    }
  }
}

// The runner may be killed while we are between lines: every complete line counts.
const input = createInterface({ input: process.stdin });
input.on('line', apply);
input.on('close', () => void reap());
process.stdin.on('error', () => void reap());
// The runner's Ctrl-C reaches its process group only; this process has its own session and ignores the rest.
for (const signal of ['SIGINT', 'SIGHUP', 'SIGTERM'] as const) process.on(signal, () => {});
