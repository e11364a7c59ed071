import { decodeLatencyHistogram, type EncodedHistogram, type LatencyHistogram } from '@bench/core';

// A stack that waits (a process pool asking for a new worker and sleeping before it looks again, a lock,
// a backlog) bounds throughput while neither side works: mod_fcgid measured here answered 995 rps at -c 10
// with the server at 9% CPU, p99 2 ms, and one request of 1,002 ms (the spawn wait). Busy CPUs explain
// themselves; these thresholds say "mostly idle" for both sides.
export const STALL_SERVER_CPU_PERCENT = 25;
export const STALL_CLIENT_CPU_PERCENT = 50;
/** A request slower than this many medians is a wait, not work... */
export const STALL_SLOW_FACTOR = 100;
/** ...and never one faster than this (100 medians of a 50 us answer are still fast). */
export const STALL_SLOW_FLOOR_MS = 100;
/** A machine busier than this (percent of all its cores) may have kept an idle-looking stack waiting for a CPU. */
export const STALL_MACHINE_BUSY_PERCENT = 50;
/** The waits must fill this share of the connections' time (concurrency x run length) to bound throughput. */
export const STALL_WAIT_SHARE = 0.05;

export interface StallInput {
  readonly concurrency: number;
  readonly durationSeconds: number;
  readonly requests: number;
  /** Milliseconds. */
  readonly latency: { readonly p50: number; readonly max: number };
  /** The run's whole latency histogram (microseconds); without it only the slowest request is known. */
  readonly histogram?: EncodedHistogram | undefined;
  /** Mean CPU over the run, percent of one core. */
  readonly serverCpuPercent?: number | undefined;
  readonly clientCpuPercent?: number | undefined;
  /** The whole machine's CPU use over the run, percent of all its cores (others' work included). */
  readonly machineBusyPercent?: number | undefined;
}

export interface SlowRequests {
  readonly count: number;
  /** Milliseconds. */
  readonly fastest: number;
  readonly slowest: number;
  /** Their latencies summed, milliseconds (approximate: from the histogram's buckets). */
  readonly totalMs: number;
}

const toMs = (us: number) => Math.round(us) / 1000;
const fmt = (value: number) => Math.round(value).toLocaleString('en-US');

/** The k-th smallest recorded value (1-based), read through percentiles so any Histogram implementation answers. */
const kth = (histogram: LatencyHistogram, k: number) => histogram.getValueAtPercentile((100 * (k - 0.5)) / histogram.totalCount);

/** Requests slower than `thresholdMs` in a histogram: how many, the range, and their summed time. */
export function slowRequests(histogram: LatencyHistogram, thresholdMs: number): SlowRequests {
  const n = histogram.totalCount;
  const threshold = thresholdMs * 1000;
  if (n === 0 || histogram.maxValue <= threshold) return { count: 0, fastest: 0, slowest: 0, totalMs: 0 };
  // the first rank whose value is above the threshold (values grow with rank)
  let low = 1;
  let high = n;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (kth(histogram, mid) > threshold) high = mid;
    else low = mid + 1;
  }
  const count = n - low + 1;
  let totalUs = 0;
  // summing rank by rank is exact to the bucket; slow requests are few, and a pathological many are capped
  const step = Math.max(1, Math.ceil(count / 1_000));
  for (let k = low; k <= n; k += step) totalUs += kth(histogram, k) * Math.min(step, n - k + 1);
  return { count, fastest: toMs(kth(histogram, low)), slowest: toMs(histogram.maxValue), totalMs: toMs(totalUs) };
}

/**
 * One line when the cell's throughput was bounded by waiting: both the server and the generator mostly
 * idle while answers took long (a few very slow requests filling a share of the run, or every answer slow).
 */
export function detectStall(input: StallInput): string | undefined {
  const { serverCpuPercent: server, clientCpuPercent: client } = input;
  if (server === undefined || input.requests === 0 || input.durationSeconds <= 0) return undefined;
  if (server >= STALL_SERVER_CPU_PERCENT || (client !== undefined && client >= STALL_CLIENT_CPU_PERCENT)) return undefined;
  const cpu = `server CPU ${fmt(server)}%${client !== undefined ? `, generator CPU ${fmt(client)}%` : ''}`;
  // on a machine busy with other work, an idle-looking stack may have been waiting for a CPU: say that instead
  const busy = input.machineBusyPercent;
  const lead =
    busy !== undefined && busy >= STALL_MACHINE_BUSY_PERCENT
      ? `answers waited while the stack used little CPU, but the machine was ${fmt(busy)}% busy (all cores) with other work, so it may have waited for a CPU`
      : 'the stack waited rather than worked';
  const connectionMs = input.concurrency * input.durationSeconds * 1000;
  // every answer slow: the median itself is a wait
  if (input.latency.p50 >= STALL_SLOW_FLOOR_MS) return `${lead}: the median request took ${fmt(input.latency.p50)} ms, ${cpu}`;
  const threshold = Math.max(STALL_SLOW_FACTOR * input.latency.p50, STALL_SLOW_FLOOR_MS);
  if (input.latency.max <= threshold) return undefined;
  let slow: SlowRequests;
  if (input.histogram) {
    const histogram = decodeLatencyHistogram(input.histogram);
    try {
      slow = slowRequests(histogram, threshold);
    } finally {
      histogram.destroy();
    }
  } else {
    // without the histogram only the slowest request is known: one at least
    slow = { count: 1, fastest: input.latency.max, slowest: input.latency.max, totalMs: input.latency.max };
  }
  if (slow.count === 0 || slow.totalMs < STALL_WAIT_SHARE * connectionMs) return undefined;
  const took =
    slow.count === 1
      ? `1 request took ${fmt(slow.slowest)} ms`
      : `${fmt(slow.count)} requests took ${fmt(slow.fastest)}-${fmt(slow.slowest)} ms`;
  return `${lead}: ${took} (the median ${input.latency.p50} ms), ${cpu}`;
}
