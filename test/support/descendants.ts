import { readProcessTable } from '@bench/core';

/**
 * Follows a process's descendants while it lives, recording every process group they lead or
 * join: after the process is killed, what is left of its run is whatever still runs in those groups.
 */
export function watchDescendants(rootPid: number, intervalMs = 20) {
  const pids = new Set<number>([rootPid]);
  const groups = new Set<number>();
  const names = new Map<number, string>();
  // the root shares its group with whoever started it (the test runner): that group is not the run's
  const rootGroup = readProcessTable().find((entry) => entry.pid === rootPid)?.pgid;
  const scan = () => {
    for (const entry of readProcessTable()) {
      if (pids.has(entry.ppid) || pids.has(entry.pid)) {
        pids.add(entry.pid);
        if (entry.pid !== rootPid) {
          if (entry.pgid !== rootGroup) groups.add(entry.pgid);
          names.set(entry.pid, entry.comm);
        }
      }
    }
  };
  scan();
  const timer = setInterval(scan, intervalMs);
  return {
    /** Process names seen so far among the descendants. */
    seen: () => [...names.values()],
    stop: () => clearInterval(timer),
    /** Live processes in any recorded group, as "pid comm". */
    survivors: () =>
      readProcessTable()
        .filter((entry) => groups.has(entry.pgid) || (pids.has(entry.pid) && entry.pid !== rootPid))
        .map((entry) => `${entry.pid} ${entry.comm}`),
  };
}
