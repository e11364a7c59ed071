import { readFileSync } from 'node:fs';
import { allowedCpus, expandCpuList } from './cpu-affinity.js';

/**
 * CPU time so far, in clock ticks, busy and total, over the cores this process may run on (the cpuN lines of
 * /proc/stat; the "cpu" line, every core, when it may run on all or its list cannot be read).
 */
function readMachineTicks(cpus: ReadonlySet<number> | undefined): { busy: number; total: number } | undefined {
  try {
    const lines = readFileSync('/proc/stat', 'utf8').split('\n');
    const wanted = cpus ? lines.filter((line) => cpus.has(Number(/^cpu(\d+) /.exec(line)?.[1] ?? -1))) : lines.slice(0, 1);
    let busy = 0;
    let total = 0;
    for (const line of wanted) {
      const ticks = line.trim().split(/\s+/).slice(1).map(Number);
      // user nice system idle iowait irq softirq steal (guest time is already inside user)
      const all = ticks.slice(0, 8).reduce((sum, t) => sum + (Number.isFinite(t) ? t : 0), 0);
      busy += all - (ticks[3] ?? 0) - (ticks[4] ?? 0);
      total += all;
    }
    return total > 0 ? { busy, total } : undefined;
  } catch {
    return undefined;
  }
}

/** The cores this process may run on, when that is not every core of the machine (a host pinned to some of them). */
function ownCpus(): ReadonlySet<number> | undefined {
  const list = allowedCpus(process.pid);
  if (list === undefined) return undefined;
  const cpus = new Set(expandCpuList(list));
  const online = readFileSync('/proc/stat', 'utf8').match(/^cpu\d+ /gm)?.length ?? 0;
  return cpus.size < online ? cpus : undefined;
}

/**
 * How busy the machine was between start and stop, in percent of all its cores (of the cores this process may run
 * on, when it was confined to some: a host pinned to one CPU of a shared machine): the stack, the generator and
 * whatever else runs there. A stack that used little CPU on a busy machine may have waited for a CPU, not for itself.
 */
export function watchMachineCpu(): { stop(): number | undefined } {
  let cpus: ReadonlySet<number> | undefined;
  try {
    cpus = ownCpus();
  } catch {
    cpus = undefined;
  }
  const start = readMachineTicks(cpus);
  return {
    stop() {
      const end = readMachineTicks(cpus);
      if (!start || !end || end.total <= start.total) return undefined;
      return Math.round(((end.busy - start.busy) / (end.total - start.total)) * 1000) / 10;
    },
  };
}
