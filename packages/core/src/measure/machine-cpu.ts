import { readFileSync } from 'node:fs';

/** The machine's CPU time so far, in clock ticks: busy and total, over every core (the "cpu" line of /proc/stat). */
function readMachineTicks(): { busy: number; total: number } | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    const [, ...fields] = line.trim().split(/\s+/);
    const ticks = fields.map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already inside user)
    const total = ticks.slice(0, 8).reduce((sum, t) => sum + (Number.isFinite(t) ? t : 0), 0);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/**
 * How busy the whole machine was between start and stop, in percent of all its cores: the stack, the
 * generator and whatever else runs here. A stack that used little CPU on a busy machine may have waited
 * for a CPU, not for itself.
 */
export function watchMachineCpu(): { stop(): number | undefined } {
  const start = readMachineTicks();
  return {
    stop() {
      const end = readMachineTicks();
      if (!start || !end || end.total <= start.total) return undefined;
      return Math.round(((end.busy - start.busy) / (end.total - start.total)) * 1000) / 10;
    },
  };
}
