// The watcher process: started by the runner in a session of its own, it reads what the runner
// records on a pipe (process groups, private dirs) and, when the pipe closes (the runner ended,
// however it ended: SIGKILL and OOM included, since the kernel closes the pipe), stops every group
// still recorded and removes every dir still recorded, then exits.
import { existsSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { listGroupMembers } from './proc-table.js';
import { setTimeout as sleep } from 'node:timers/promises';

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

async function reap(): Promise<void> {
  // a second for servers to end as they would: the runner is gone, and everything they wrote goes with their dirs
  signalAll('SIGTERM');
  const deadline = Date.now() + 1000;
  while (Date.now() < deadline && [...groups].some((pgid) => listGroupMembers(pgid).length > 0)) await sleep(50);
  signalAll('SIGKILL');
  const killDeadline = Date.now() + 1500;
  while (Date.now() < killDeadline && [...groups].some((pgid) => listGroupMembers(pgid).length > 0)) await sleep(50);
  await removeDirs(Date.now() + 2000);
  process.exit(0);
}

// A process that died a moment ago may have been writing in its dir, or one not yet dead may write there after it was
// removed (a clean-clone CI run found MariaDB's dir still there 5 s after a SIGKILL of the runner during
// mariadb-install-db, its processes gone, when this removed each dir once): remove every dir until all stay gone or the
// deadline passes. One dir that will not go keeps no other; what is left, the next start of bench removes.
async function removeDirs(deadline: number): Promise<void> {
  while (dirs.size > 0) {
    for (const dir of dirs) {
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch {
        // tried again below, until the deadline
      }
    }
    await sleep(100);
    for (const dir of dirs) if (!existsSync(dir)) dirs.delete(dir);
    if (Date.now() > deadline) return;
  }
}

// The runner may be killed while we are between lines: every complete line counts.
const input = createInterface({ input: process.stdin });
input.on('line', apply);
input.on('close', () => void reap());
process.stdin.on('error', () => void reap());
// The runner's Ctrl-C reaches its process group only; this process has its own session and ignores the rest.
for (const signal of ['SIGINT', 'SIGHUP', 'SIGTERM'] as const) process.on(signal, () => {});
