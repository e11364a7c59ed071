import { readProcessTable } from '../process/proc-table.js';
import type { ResourceSample } from '../result.js';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux
const PAGE_SIZE = 4096;

export interface ResourceSampler {
  /** Stops sampling and returns CPU (percent of one core) and peak RSS over the sampled period. */
  stop(): ResourceSample;
}

export interface GroupSampler<K extends string> {
  /** Stops sampling and returns, for each named set, CPU (percent of one core) and peak RSS. */
  stop(): Partial<Record<K, ResourceSample>>;
}

// A process that starts and ends between two samples (a CGI child) is missed, so for per-request
// stacks the CPU figure is a lower bound.
/** Samples named sets of process groups (e.g. the target, the services) with one /proc scan per tick. */
export function sampleProcessGroups<K extends string>(sets: Readonly<Record<K, readonly number[]>>, intervalMs = 250): GroupSampler<K> {
  const names = (Object.keys(sets) as K[]).filter((name) => sets[name].length > 0);
  if (process.platform !== 'linux' || names.length === 0) return { stop: () => ({}) };
  const setOf = new Map<number, K>();
  for (const name of names) for (const group of sets[name]) setOf.set(group, name);
  const lastTicks = new Map<number, number>();
  const totals = new Map<K, { ticks: number; peakRss: number; peakProcesses: number; atPeak: Array<{ name: string; rssBytes: number }> }>(
    names.map((name) => [name, { ticks: 0, peakRss: 0, peakProcesses: 0, atPeak: [] }]),
  );
  const started = process.hrtime.bigint();
  const sample = () => {
    const now = new Map<K, { rss: number; processes: number; each: Array<{ name: string; rssBytes: number }> }>(
      names.map((name) => [name, { rss: 0, processes: 0, each: [] }]),
    );
    for (const entry of readProcessTable()) {
      const name = setOf.get(entry.pgid);
      if (name === undefined) continue;
      const total = totals.get(name)!;
      const current = now.get(name)!;
      total.ticks += entry.cpuTicks - (lastTicks.get(entry.pid) ?? entry.cpuTicks);
      lastTicks.set(entry.pid, entry.cpuTicks);
      current.rss += entry.rssPages * PAGE_SIZE;
      current.processes++;
      current.each.push({ name: entry.comm, rssBytes: entry.rssPages * PAGE_SIZE });
    }
    for (const [name, current] of now) {
      const total = totals.get(name)!;
      if (current.rss > total.peakRss) {
        total.peakRss = current.rss;
        total.atPeak = current.each;
      }
      total.peakProcesses = Math.max(total.peakProcesses, current.processes);
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const result: Partial<Record<K, ResourceSample>> = {};
      for (const [name, t] of totals) {
        result[name] = {
          cpuPercent: round1((t.ticks / TICKS_PER_SECOND / seconds) * 100),
          rssBytes: t.peakRss,
          processes: t.peakProcesses,
          atPeak: t.atPeak,
        };
      }
      return result;
    },
  };
}

/** Samples this process (the load generator). */
export function sampleSelf(): ResourceSampler {
  const startCpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  let peakRss = process.memoryUsage.rss();
  const timer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 250);
  return {
    stop() {
      clearInterval(timer);
      const cpu = process.cpuUsage(startCpu);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      return { cpuPercent: round1(((cpu.user + cpu.system) / 1e6 / seconds) * 100), rssBytes: peakRss, processes: 1 };
    },
  };
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
