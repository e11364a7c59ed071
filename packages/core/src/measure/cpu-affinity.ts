import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { listGroupMembers } from '../process/proc-table.js';

/** The CPUs a process may run on, as /proc/PID/status says (Cpus_allowed_list), e.g. "0-1". */
export function allowedCpus(pid: number): string | undefined {
  try {
    return /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

/** "0-2,5" -> [0, 1, 2, 5]. */
export function expandCpuList(list: string): number[] {
  return list.split(',').flatMap((part) => {
    const [from, to] = part.split('-').map(Number);
    return to === undefined ? [from ?? 0] : Array.from({ length: to - (from ?? 0) + 1 }, (_, i) => (from ?? 0) + i);
  });
}

/** Sets the affinity of every thread of a process (taskset -a -p); children it forks later inherit it. */
export function pinProcess(pid: number, cpus: string): void {
  spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}

/**
 * Pins every live member of these process groups. A member forked while the others were being pinned (a PHP-FPM
 * child, say) kept its parent's old affinity, so the groups are listed again until a pass finds no member unpinned.
 */
export function pinProcessGroups(groups: readonly number[], cpus: string): void {
  const pinned = new Set<number>();
  for (let pass = 0; pass < 5; pass++) {
    const unpinned = groups.flatMap((pgid) => listGroupMembers(pgid)).filter((member) => !pinned.has(member.pid));
    if (unpinned.length === 0) return;
    for (const member of unpinned) {
      pinProcess(member.pid, cpus);
      pinned.add(member.pid);
    }
  }
}

/** Pins this process (the in-process load generator) for the duration of `work`, then restores its affinity. */
export async function whilePinned<T>(cpus: string | undefined, work: () => Promise<T>): Promise<T> {
  if (!cpus) return work();
  const before = allowedCpus(process.pid);
  pinProcess(process.pid, cpus);
  try {
    return await work();
  } finally {
    if (before) pinProcess(process.pid, before);
  }
}
