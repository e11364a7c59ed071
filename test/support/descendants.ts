import { readProcessTable } from '@bench/core';

/**
 * Follows a process's descendants while it lives, recording every process group they lead or
 * join: after the process is killed, what is left of its run is whatever still runs in those groups.
 * Each look reads every process's stat: php-sapi-centos5's file took 3.7 s of its worker's CPU looking every 20 ms,
 * 1.4 s every 100 ms (a 32 s run, alone). The servers bench starts live for seconds; a test that kills the runner at
 * a moment of its choosing looks more often.
 */
export function watchDescendants(rootPid: number, intervalMs = 100) {
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
    /**
     * Live processes in any recorded group, as "pid comm", once those ending anyway have had `graceMs` to go: the
     * runner's watcher exits only after the runner does, later still on a machine busy with other tests.
     */
    async survivors(graceMs = 3000): Promise<string[]> {
      const deadline = Date.now() + graceMs;
      for (;;) {
        const left = readProcessTable()
          .filter((entry) => groups.has(entry.pgid) || (pids.has(entry.pid) && entry.pid !== rootPid))
          .map((entry) => `${entry.pid} ${entry.comm}`);
        if (left.length === 0 || Date.now() > deadline) return left;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}
