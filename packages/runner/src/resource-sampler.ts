import { readProcessTable, type ResourceSample } from '@bench/core';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux
const PAGE_SIZE = 4096;

export interface ResourceSampler {
  /** Stops sampling and returns CPU (percent of one core) and peak RSS over the sampled period. */
  stop(): ResourceSample | undefined;
}

// A process that starts and ends between two samples (a CGI child) is missed, so for per-request
// stacks the CPU figure is a lower bound; the report says so.
/** Samples every process in the given process groups from /proc. */
export function sampleProcessGroups(groups: readonly number[], intervalMs = 250): ResourceSampler {
  if (process.platform !== 'linux' || groups.length === 0) return { stop: () => undefined };
  const wanted = new Set(groups);
  const lastTicks = new Map<number, number>();
  let ticks = 0;
  let peakRss = 0;
  let peakProcesses = 0;
  const started = process.hrtime.bigint();
  const sample = () => {
    const members = readProcessTable().filter((entry) => wanted.has(entry.pgid));
    let rss = 0;
    for (const entry of members) {
      ticks += entry.cpuTicks - (lastTicks.get(entry.pid) ?? entry.cpuTicks);
      lastTicks.set(entry.pid, entry.cpuTicks);
      rss += entry.rssPages * PAGE_SIZE;
    }
    peakRss = Math.max(peakRss, rss);
    peakProcesses = Math.max(peakProcesses, members.length);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      return { cpuPercent: round1((ticks / TICKS_PER_SECOND / seconds) * 100), rssBytes: peakRss, processes: peakProcesses };
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
