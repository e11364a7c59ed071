import { hdrLibrary } from './hdr-library.js';
import { emptyFailures, type FailureCounts } from './failures.js';
import { encodeLatencyHistogram, mergeLatencyHistograms, summarizeLatency } from './latency.js';
import { LatencyCounter } from './latency-counter.js';
import type { EncodedHistogram } from '../result.js';

/** What an engine saw in one second of a run: answers, failures and that second's latencies. */
export interface EngineSecond {
  /** Whole seconds from the engine's start of load. */
  readonly t: number;
  /** How much of this second the run covered (the last one may be partial). */
  readonly seconds: number;
  readonly requests: number;
  readonly non2xx: number;
  readonly failures: FailureCounts;
  /** Milliseconds; absent when the engine cannot time requests per second. */
  readonly latency?: { readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number };
  /** The generator's CPU in this second, percent of one core, when the engine samples it. */
  readonly clientCpuPercent?: number;
  /** Connections the engine opened in this second, when it times its connections. */
  readonly newConnections?: number;
  /** TLS handshakes that ended in this second: how many, their mean and their longest (ms). */
  readonly handshakes?: { readonly count: number; readonly mean: number; readonly max: number };
}

/**
 * A second as it closes during a live run, for a journal to keep: its counts and its whole histogram (so seconds
 * from several threads, and a cell cut short, merge exactly). One thread's share when the engine runs on several.
 */
export interface LiveSecond {
  readonly t: number;
  readonly requests: number;
  readonly non2xx: number;
  readonly failures: FailureCounts;
  readonly histogram?: EncodedHistogram;
}

// Every field is there from the bucket's start (none added or deleted later): one hidden class for every bucket, so a
// generator's code optimized in one run is not deoptimized by a bucket shape it meets in the next
interface Bucket {
  requests: number;
  newConnections: number;
  handshakes: { count: number; sumUs: number; maxUs: number } | undefined;
  non2xx: number;
  failures: FailureCounts;
  /** The second's latencies, counted until read. */
  latencies: LatencyCounter | undefined;
  /** The second's percentiles, once its histogram was summarized and freed. */
  latency: EngineSecond['latency'] | undefined;
}

const emptyBucket = (): Bucket => ({
  requests: 0,
  newConnections: 0,
  handshakes: undefined,
  non2xx: 0,
  failures: emptyFailures(),
  latencies: undefined,
  latency: undefined,
});

// A second's percentiles need far less precision than the run's own histogram (3 digits: 0.1%), and cost little to build.
const SECOND_HISTOGRAM = { lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 } as const;
const toMs = (us: number) => Math.round(us) / 1000;
const isEmpty = (bucket: Bucket) => bucket.requests === 0 && Object.values(bucket.failures).every((n) => n === 0);

// A second's histogram holds about 93 KB: a live generator's are summarized and freed three seconds after their
// second ends (its answers arrive in order; spare seconds for a journal to take it first), so a run of hours keeps four.
function settle(bucket: Bucket | undefined): void {
  const h = bucket?.latencies?.flush();
  if (!bucket || !h) return;
  if (h.totalCount > 0) {
    // a percentile reads its bucket's highest value (3 digits), which can pass the second's exact max
    const max = toMs(h.maxValue);
    const at = (p: number) => Math.min(max, toMs(h.getValueAtPercentile(p)));
    bucket.latency = { p50: at(50), p90: at(90), p99: at(99), max };
  }
  h.destroy();
  bucket.latencies = undefined;
}

/** Buckets a run's answers and failures by the second they happened in (from `startNs`, a process.hrtime.bigint() reading). */
export class SeriesRecorder {
  private readonly buckets: Bucket[] = [];
  private startNs: bigint;
  private readonly live: boolean;
  /** Seconds already handed over by takeClosed. */
  private taken = 0;
  /** Set by the first connection counted: from then on every second says how many it opened. */
  private countsConnections = false;

  /** `live`: answers come as they happen, in time order (not read back from a file), so old seconds can be settled early. */
  constructor(startNs: bigint = process.hrtime.bigint(), options: { readonly live?: boolean } = {}) {
    this.startNs = startNs;
    this.live = options.live ?? false;
  }

  /** Moves the start (for engines that learn it late, e.g. autocannon's 'start' event); nothing recorded before is kept. */
  restart(startNs: bigint): void {
    this.startNs = startNs;
    for (const bucket of this.buckets) bucket.latencies?.histogram.destroy();
    this.buckets.length = 0;
    this.current = undefined;
    this.taken = 0;
  }

  /**
   * The seconds that ended by `nowNs` and were not taken before, each with its histogram: a live run's answers are
   * timed as they are read, so nothing lands in a second once it has ended.
   */
  takeClosed(nowNs: bigint = process.hrtime.bigint()): LiveSecond[] {
    const ended = Math.min(this.buckets.length, Math.max(0, Number((nowNs - this.startNs) / 1_000_000_000n)));
    const closed: LiveSecond[] = [];
    for (; this.taken < ended; this.taken++) {
      const bucket = this.buckets[this.taken]!;
      const h = bucket.latencies?.flush();
      closed.push({
        t: this.taken,
        requests: bucket.requests,
        non2xx: bucket.non2xx,
        failures: { ...bucket.failures },
        ...(h && h.totalCount > 0 ? { histogram: encodeLatencyHistogram(h) } : {}),
      });
    }
    return closed;
  }

  // the second answers are arriving in now, from and to (ms after the start): most answers land there, with no division
  private current: { bucket: Bucket; fromMs: number; toMs: number } | undefined;

  private bucket(atNs: bigint): Bucket {
    return this.bucketAfter(Number(atNs - this.startNs) / 1e6);
  }

  private bucketAfter(ms: number): Bucket {
    const current = this.current;
    if (current && ms >= current.fromMs && ms < current.toMs) return current.bucket;
    const index = Math.max(0, Math.floor(ms / 1000));
    for (let i = this.buckets.length; i <= index; i++) {
      this.buckets.push(emptyBucket());
      if (this.live) settle(this.buckets[i - 3]);
    }
    const bucket = this.buckets[index]!;
    // before the start, answers land in second 0 but do not move the window
    if (ms >= 0) this.current = { bucket, fromMs: index * 1000, toMs: (index + 1) * 1000 };
    return bucket;
  }

  /** One answer: its latency in microseconds, whether its status was 2xx, and when it arrived. */
  response(latencyUs: number, ok: boolean, atNs: bigint = process.hrtime.bigint()): void {
    this.responseAfter(latencyUs, ok, Number(atNs - this.startNs) / 1e6);
  }

  /**
   * One answer that arrived `sinceStartMs` after the start: an engine that reads a millisecond clock for every answer
   * (performance.now()) places it with no process.hrtime.bigint() call and no BigInt.
   */
  responseAfter(latencyUs: number, ok: boolean, sinceStartMs: number): void {
    const bucket = this.bucketAfter(sinceStartMs);
    bucket.requests++;
    if (!ok) bucket.non2xx++;
    // an answer later than that (its second already summarized) is counted, its latency left out of that second's percentiles
    if (bucket.latency === undefined)
      (bucket.latencies ??= new LatencyCounter(hdrLibrary().build(SECOND_HISTOGRAM), 31)).record(Math.max(1, Math.round(latencyUs)));
  }

  /** An answer counted without a latency (engines that only count per second). */
  count(requests: number, non2xx: number, atNs: bigint): void {
    const bucket = this.bucket(atNs);
    bucket.requests += requests;
    bucket.non2xx += non2xx;
  }

  /** A connection the engine opened (its connect done): from the first, every second says how many it opened. */
  connection(atNs: bigint = process.hrtime.bigint()): void {
    this.countsConnections = true;
    const bucket = this.bucket(atNs);
    bucket.newConnections++;
  }

  /** A TLS handshake that ended at `atNs`, after `us` microseconds. */
  handshake(us: number, atNs: bigint = process.hrtime.bigint()): void {
    const bucket = this.bucket(atNs);
    const h = (bucket.handshakes ??= { count: 0, sumUs: 0, maxUs: 0 });
    h.count++;
    h.sumUs += us;
    h.maxUs = Math.max(h.maxUs, us);
  }

  /** One failure of a kind ab counts (a timeout is also an exception, as in the run's totals). */
  failure(kind: keyof FailureCounts, atNs: bigint = process.hrtime.bigint()): void {
    const failures = this.bucket(atNs).failures;
    failures[kind]++;
    if (kind === 'timeouts') failures.exceptions++;
  }

  /** The seconds from the start to `endNs`, each with its counts and percentiles; frees the per-second histograms. */
  finish(endNs: bigint = process.hrtime.bigint(), clientCpu: readonly number[] = []): EngineSecond[] {
    const elapsed = Math.max(0, Number(endNs - this.startNs) / 1e9);
    const whole = Math.max(1, Math.ceil(elapsed - 1e-6));
    if (this.buckets.length < whole) this.bucket(this.startNs + BigInt(whole - 1) * 1_000_000_000n);
    // a sliver of a last second in which nothing happened (the run ended just past a whole second) is not a point
    const last = this.buckets.at(-1);
    if (this.buckets.length > 1 && elapsed - (this.buckets.length - 1) < 0.1 && last && isEmpty(last)) this.buckets.pop();
    return this.buckets.map((bucket, t) => {
      settle(bucket);
      const latency = bucket.latency;
      const cpu = clientCpu[t];
      return {
        t,
        seconds: Math.round(Math.min(1, Math.max(elapsed - t, 0.001)) * 1000) / 1000,
        requests: bucket.requests,
        non2xx: bucket.non2xx,
        failures: bucket.failures,
        ...(latency ? { latency } : {}),
        ...(cpu !== undefined ? { clientCpuPercent: cpu } : {}),
        ...(this.countsConnections ? { newConnections: bucket.newConnections } : {}),
        ...(bucket.handshakes
          ? {
              handshakes: {
                count: bucket.handshakes.count,
                mean: toMs(bucket.handshakes.sumUs / bucket.handshakes.count),
                max: toMs(bucket.handshakes.maxUs),
              },
            }
          : {}),
      };
    });
  }
}

/** One second of a live run, its threads' shares added up: counts, and percentiles from their merged histograms. */
export interface MergedLiveSecond {
  readonly t: number;
  readonly requests: number;
  readonly non2xx: number;
  readonly failures: FailureCounts;
  /** Milliseconds, from the merged histogram; absent when the second timed no answer. */
  readonly latency?: { readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number };
  readonly histograms: readonly EncodedHistogram[];
}

/** Live seconds (each thread's share of a second, as engines hand them over) summed by second, in time order. */
export function mergeLiveSeconds(shares: readonly LiveSecond[]): MergedLiveSecond[] {
  const byT = new Map<number, { requests: number; non2xx: number; failures: FailureCounts; histograms: EncodedHistogram[] }>();
  for (const share of shares) {
    let m = byT.get(share.t);
    if (!m) byT.set(share.t, (m = { requests: 0, non2xx: 0, failures: emptyFailures(), histograms: [] }));
    m.requests += share.requests;
    m.non2xx += share.non2xx;
    for (const kind of Object.keys(m.failures) as (keyof FailureCounts)[]) m.failures[kind] += share.failures[kind];
    if (share.histogram) m.histograms.push(share.histogram);
  }
  return [...byT.entries()]
    .sort(([a], [b]) => a - b)
    .map(([t, m]) => {
      if (m.histograms.length === 0) return { t, ...m };
      const h = mergeLatencyHistograms(m.histograms);
      const { p50, p90, p99, max } = summarizeLatency(h);
      h.destroy();
      return { t, ...m, latency: { p50, p90, p99, max } };
    });
}
