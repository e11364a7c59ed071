import { readProcessTable, readThreadTicks } from '../process/proc-table.js';
import type { ResourceSample } from '../result.js';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux
const PAGE_SIZE = 4096;

export interface ResourceSampler {
  /** Stops sampling and returns CPU (percent of one core) and peak RSS over the sampled period. */
  stop(): ResourceSample;
}

/** One second of a sampled set: CPU in percent of one core, and the largest resident set seen (bytes). */
export interface ResourceSecond {
  readonly cpuPercent: number;
  readonly rssBytes: number;
}

export interface GroupSampler<K extends string> {
  /** Stops sampling and returns, for each named set, CPU (percent of one core) and peak RSS. */
  stop(): Partial<Record<K, ResourceSample>>;
  /** After stop(): each set's seconds, counted from `startNs` (a process.hrtime.bigint() reading; default the sampler's start). */
  perSecond(startNs?: bigint): Partial<Record<K, ResourceSecond[]>>;
}

/** What one look at the process table found of one set: CPU ticks used since the look before, and the resident set (bytes). */
export interface SetTick {
  readonly ticks: number;
  readonly rss: number;
}

/** One look at the process table: when (a process.hrtime.bigint() reading of the process that keeps it) and what each set used. */
export interface SampleTick<K extends string> {
  readonly atNs: bigint;
  readonly sets: ReadonlyMap<K, SetTick>;
}

/** The looks' ticks and resident sets bucketed into seconds counted from `startNs`: each look counts toward the second it falls in. */
export function secondsOfTicks<K extends string>(
  samples: readonly SampleTick<K>[],
  names: readonly K[],
  startNs: bigint,
): Partial<Record<K, ResourceSecond[]>> {
  const result: Partial<Record<K, ResourceSecond[]>> = {};
  for (const name of names) {
    const seconds: Array<{ ticks: number; rss: number }> = [];
    for (const { atNs, sets } of samples) {
      if (atNs < startNs) continue;
      const second = Number((atNs - startNs) / 1_000_000_000n);
      while (seconds.length <= second) seconds.push({ ticks: 0, rss: 0 });
      const set = sets.get(name);
      if (!set) continue;
      seconds[second]!.ticks += set.ticks;
      seconds[second]!.rss = Math.max(seconds[second]!.rss, set.rss);
    }
    result[name] = seconds.map((s) => ({ cpuPercent: round1((Math.max(0, s.ticks) / TICKS_PER_SECOND) * 100), rssBytes: s.rss }));
  }
  return result;
}

// A process that starts and ends between two samples (a CGI child) is never seen, but its CPU time
// moves into its parent's cutime/cstime when the parent waits for it: counted there (minus what was
// already counted of children seen alive), a per-request stack's CPU (php-cgi under mod_cgid) is measured, not
// missed.
/**
 * Samples named sets of process groups (e.g. the target, the services) with one /proc scan per tick; `onTick` sees
 * each look as it is taken (an agent sends them to a runner on another host).
 */
export function sampleProcessGroups<K extends string>(
  sets: Readonly<Record<K, readonly number[]>>,
  intervalMs = 250,
  onTick?: (tick: SampleTick<K>) => void,
): GroupSampler<K> {
  const names = (Object.keys(sets) as K[]).filter((name) => sets[name].length > 0);
  if (process.platform !== 'linux' || names.length === 0) return { stop: () => ({}), perSecond: () => ({}) };
  const setOf = new Map<number, K>();
  for (const name of names) for (const group of sets[name]) setOf.set(group, name);
  const lastTicks = new Map<number, number>();
  const lastSeen = new Map<number, { ticks: number; ppid: number; set: K }>();
  const totals = new Map<K, { ticks: number; peakRss: number; peakProcesses: number; atPeak: Array<{ name: string; rssBytes: number }> }>(
    names.map((name) => [name, { ticks: 0, peakRss: 0, peakProcesses: 0, atPeak: [] }]),
  );
  const started = process.hrtime.bigint();
  // each thread's ticks at the start, per set, read again at the end: how busy the busiest one was
  const pidsOf = (name: K) =>
    readProcessTable()
      .filter((entry) => setOf.get(entry.pgid) === name)
      .map((entry) => entry.pid);
  const threadsAtStart = new Map<K, Map<number, number>>(names.map((name) => [name, readThreadTicks(pidsOf(name))]));
  // every sample's time and, per set, the CPU ticks used since the last one and the RSS: bucketed by second on demand
  const samples: Array<SampleTick<K>> = [];
  let firstLook = true;
  const sample = () => {
    const atNs = process.hrtime.bigint();
    const now = new Map<K, { rss: number; ticks: number; processes: number; each: Array<{ name: string; rssBytes: number }> }>(
      names.map((name) => [name, { rss: 0, ticks: 0, processes: 0, each: [] }]),
    );
    const alive = new Set<number>();
    for (const entry of readProcessTable()) {
      const name = setOf.get(entry.pgid);
      if (name === undefined) continue;
      const total = totals.get(name)!;
      const current = now.get(name)!;
      const own = entry.cpuTicks + entry.childTicks;
      // a process first seen after the first look was born since: all its CPU is the window's (a CGI child caught
      // mid-request); one there at the first look counts from there
      const ticks = own - (lastTicks.get(entry.pid) ?? (firstLook ? own : 0));
      total.ticks += ticks;
      current.ticks += ticks;
      lastTicks.set(entry.pid, own);
      alive.add(entry.pid);
      lastSeen.set(entry.pid, { ticks: own, ppid: entry.ppid, set: name });
      current.rss += entry.rssPages * PAGE_SIZE;
      current.processes++;
      current.each.push({ name: entry.comm, rssBytes: entry.rssPages * PAGE_SIZE });
    }
    // a process seen before that ended: its parent's child ticks now hold all of it, part of which was counted already
    for (const [pid, seen] of lastSeen) {
      if (alive.has(pid)) continue;
      lastSeen.delete(pid);
      lastTicks.delete(pid);
      if (!alive.has(seen.ppid)) continue;
      const total = totals.get(seen.set)!;
      const current = now.get(seen.set)!;
      total.ticks -= seen.ticks;
      current.ticks -= seen.ticks;
    }
    for (const [name, current] of now) {
      const total = totals.get(name)!;
      if (current.rss > total.peakRss) {
        total.peakRss = current.rss;
        total.atPeak = current.each;
      }
      total.peakProcesses = Math.max(total.peakProcesses, current.processes);
    }
    const tick = { atNs, sets: new Map([...now].map(([name, current]) => [name, { ticks: current.ticks, rss: current.rss }])) };
    samples.push(tick);
    onTick?.(tick);
    firstLook = false;
  };
  sample();
  // a group just spawned may not have its own session yet at the first sample, and a short program (ab with 1,000
  // requests on loopback) can end before the first interval: two early looks catch it
  const early = [10, 40].filter((ms) => ms < intervalMs).map((ms) => setTimeout(sample, ms));
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      for (const t of early) clearTimeout(t);
      clearInterval(timer);
      sample();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const result: Partial<Record<K, ResourceSample>> = {};
      for (const [name, t] of totals) {
        const before = threadsAtStart.get(name)!;
        let busiest = 0;
        for (const [tid, ticks] of readThreadTicks(pidsOf(name))) busiest = Math.max(busiest, ticks - (before.get(tid) ?? ticks));
        result[name] = {
          cpuPercent: round1((Math.max(0, t.ticks) / TICKS_PER_SECOND / seconds) * 100),
          rssBytes: t.peakRss,
          processes: t.peakProcesses,
          busiestThreadPercent: round1((busiest / TICKS_PER_SECOND / seconds) * 100),
          atPeak: t.atPeak,
        };
      }
      return result;
    },
    perSecond(startNs = started) {
      return secondsOfTicks(samples, names, startNs);
    },
  };
}

/** Samples this process (the load generator). */
export function sampleSelf(): ResourceSampler & { perSecond(): number[] } {
  const startCpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  let peakRss = process.memoryUsage.rss();
  const timer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 250);
  // CPU per second of the run (percent of one core), read at each whole second
  const perSecond: number[] = [];
  let lastCpu = startCpu;
  let lastTick = started;
  const everySecond = setInterval(() => {
    const now = process.cpuUsage();
    perSecond.push(round1((now.user - lastCpu.user + now.system - lastCpu.system) / 1e4));
    lastCpu = now;
    lastTick = process.hrtime.bigint();
  }, 1000);
  return {
    // read as the run ends: its last second too, when at least half of it has gone by (a 2 s run's second second ends
    // as the run does, before the interval's turn), over the time it has run
    perSecond: () => {
      const elapsedUs = Number(process.hrtime.bigint() - lastTick) / 1e3;
      if (elapsedUs < 5e5) return perSecond;
      const now = process.cpuUsage();
      return [...perSecond, round1(((now.user - lastCpu.user + now.system - lastCpu.system) / elapsedUs) * 100)];
    },
    stop() {
      clearInterval(timer);
      clearInterval(everySecond);
      const cpu = process.cpuUsage(startCpu);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      return { cpuPercent: round1(((cpu.user + cpu.system) / 1e6 / seconds) * 100), rssBytes: peakRss, processes: 1 };
    },
  };
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
