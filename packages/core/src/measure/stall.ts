import { decodeLatencyHistogram, type LatencyHistogram } from './latency.js';
import { type EncodedHistogram } from '../result.js';

// A stack that waits (a process pool asking for a new worker and sleeping before it looks again, a lock, a backlog)
// bounds throughput while neither side works (mod_fcgid's spawn wait: docs/fidelity.md, "Stalls named"). Busy CPUs
// explain themselves; these thresholds say "mostly idle" for both sides.
export const STALL_SERVER_CPU_PERCENT = 25;
export const STALL_CLIENT_CPU_PERCENT = 50;
/** A request slower than this many medians is a wait, not work... */
export const STALL_SLOW_FACTOR = 100;
/** ...and never one faster than this (100 medians of a 50 us answer are still fast). */
export const STALL_SLOW_FLOOR_MS = 100;
/** A machine busier than this (percent of all its cores) may have kept an idle-looking stack waiting for a CPU. */
export const STALL_MACHINE_BUSY_PERCENT = 50;
/** Single slow requests on a stack that otherwise worked are named from this long on. */
export const OUTLIER_FLOOR_MS = 500;
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
function countSlow(input: StallInput, threshold: number): SlowRequests {
  if (!input.histogram) {
    // without the histogram only the slowest request is known: one at least
    return { count: 1, fastest: input.latency.max, slowest: input.latency.max, totalMs: input.latency.max };
  }
  const histogram = decodeLatencyHistogram(input.histogram);
  try {
    return slowRequests(histogram, threshold);
  } finally {
    histogram.destroy();
  }
}

const tookLine = (slow: SlowRequests) =>
  slow.count === 1
    ? `1 request took ${fmt(slow.slowest)} ms`
    : `${fmt(slow.count)} requests took ${fmt(slow.fastest)}-${fmt(slow.slowest)} ms`;

/**
 * One line when the cell's answers waited: throughput bounded by waiting (both the server and the generator
 * mostly idle while a few very slow requests filled a share of the run, or every answer slow), or, with busy
 * CPUs, single requests that waited far longer than the rest (a worker start-up, a full pool: mod_fcgid polls
 * for a free process once a second) inside the measured run.
 */
export function detectStall(input: StallInput): string | undefined {
  const { serverCpuPercent: server, clientCpuPercent: client } = input;
  if (input.requests === 0 || input.durationSeconds <= 0) return undefined;
  const idle = server !== undefined && server < STALL_SERVER_CPU_PERCENT && (client === undefined || client < STALL_CLIENT_CPU_PERCENT);
  const cpu = `server CPU ${fmt(server ?? 0)}%${client !== undefined ? `, generator CPU ${fmt(client)}%` : ''}`;
  // on a machine busy with other work, an idle-looking stack may have been waiting for a CPU: say that instead
  const busy = input.machineBusyPercent;
  const lead =
    busy !== undefined && busy >= STALL_MACHINE_BUSY_PERCENT
      ? `answers waited while the stack used little CPU, but the machine was ${fmt(busy)}% busy (all cores) with other work, so it may have waited for a CPU`
      : 'the stack waited rather than worked';
  // every answer slow: the median itself is a wait
  if (idle && input.latency.p50 >= STALL_SLOW_FLOOR_MS) return `${lead}: the median request took ${fmt(input.latency.p50)} ms, ${cpu}`;
  const threshold = Math.max(STALL_SLOW_FACTOR * input.latency.p50, STALL_SLOW_FLOOR_MS);
  if (input.latency.max <= threshold) return undefined;
  const slow = countSlow(input, threshold);
  if (slow.count === 0) return undefined;
  if (idle && slow.totalMs >= STALL_WAIT_SHARE * input.concurrency * input.durationSeconds * 1000)
    return `${lead}: ${tookLine(slow)} (the median ${input.latency.p50} ms), ${cpu}`;
  // the rest worked: name the waits only when they are long enough not to be the scheduler's noise
  if (slow.slowest < OUTLIER_FLOOR_MS) return undefined;
  return `waits inside the measured run: ${tookLine(slow)}, over ${STALL_SLOW_FACTOR} times the median (${input.latency.p50} ms): a worker start-up, a full pool or a queue, not work`;
}
