import type { FailureKind, LoadProgress } from '@bench/core';
import {
  createLatencyHistogram,
  emptyFailures,
  encodeLatencyHistogram,
  LatencyCounter,
  printable,
  recycleLatencyHistogram,
  SeriesRecorder,
  summarizeLatency,
} from '@bench/core/load-thread';

/** The longest error sample kept: a server's bytes quoted in it are cut there. */
const SAMPLE_MAX = 300;

/**
 * What an in-process engine counts in one run, answer by answer: requests, status codes, bytes,
 * failures by kind, a few error messages, the microsecond latency histogram and the per-second
 * series (and, in test mode, every latency as recorded).
 */
export class RunTally {
  requests = 0;
  non2xx = 0;
  totalBytes = 0;
  bodyBytes = 0;
  keptAlive = 0;
  readonly failures = emptyFailures();
  // counted by code in a typed array (a keyed store on an object costs more per answer), read out at the end
  private readonly byStatus = new Uint32Array(1000);
  readonly series: SeriesRecorder;
  // counted below 1.05 s (2 ** 20 µs) in the histogram's own slots (2 MB of counts); longer waits recorded as they come
  private readonly latencies = new LatencyCounter(createLatencyHistogram(), 20);
  private readonly errorSamples = new Set<string>();
  private readonly raw: number[] | undefined;

  constructor(startNs: bigint | undefined, rawSamples = false) {
    this.series = new SeriesRecorder(startNs, { live: true });
    this.raw = rawSamples ? [] : undefined;
  }

  /** How many answers came with each status code. */
  get statusCodes(): Record<string, number> {
    const counts: Record<string, number> = {};
    this.byStatus.forEach((count, status) => {
      if (count > 0) counts[status] = count;
    });
    return counts;
  }

  /** One answer with its status, at `atNs`, `latencyUs` after it was (meant to be) sent; its bytes, headers included. */
  answer(status: number, latencyUs: number, bytes: number, atNs: bigint): void {
    this.series.response(latencyUs, this.count(status, latencyUs, bytes), atNs);
  }

  /** One answer, as answer() counts it, that arrived `sinceStartMs` after the series' start (no BigInt per answer). */
  answerAfter(status: number, latencyUs: number, bytes: number, sinceStartMs: number): void {
    this.series.responseAfter(latencyUs, this.count(status, latencyUs, bytes), sinceStartMs);
  }

  /** Counts an answer everywhere but in the series; whether its status was 2xx. */
  private count(status: number, latencyUs: number, bytes: number): boolean {
    const ok = status >= 200 && status < 300;
    this.requests++;
    this.totalBytes += bytes;
    this.byStatus[status]!++;
    if (!ok) this.non2xx++;
    this.latencies.record(latencyUs);
    this.raw?.push(latencyUs);
    return ok;
  }

  /** An answer whose body was not the expected one. */
  wrongBody(atNs?: bigint): void {
    this.failures.length++;
    this.series.failure('length', atNs);
  }

  /** A request that failed: a timeout counts as a failed request (ab's exceptions) and on its own. */
  error(kind: FailureKind, message: string, atNs?: bigint): void {
    if (kind === 'timeout') {
      this.failures.timeouts++;
      this.failures.exceptions++;
    } else this.failures[kind]++;
    this.series.failure(kind === 'timeout' ? 'timeouts' : kind, atNs);
    this.sample(message);
  }

  /** Keeps a message among the run's few error samples (the first five kinds seen), a server's bytes in it made printable. */
  sample(message: string): void {
    if (this.errorSamples.size < 5) this.errorSamples.add(printable(message, SAMPLE_MAX));
  }

  /** What the engine reports every second: elapsed time, answers so far, and the seconds that closed since. */
  progress(startNs: bigint): LoadProgress {
    const now = process.hrtime.bigint();
    const seconds = this.series.takeClosed(now);
    return { elapsedSeconds: Number(now - startNs) / 1e9, requests: this.requests, ...(seconds.length > 0 ? { seconds } : {}) };
  }

  note(message: string): void {
    this.errorSamples.add(printable(message, SAMPLE_MAX));
  }

  /** The run's counts, its latency (summarized and encoded; the histogram is freed) and its seconds up to `endNs`. */
  finish(endNs: bigint, clientCpuPerSecond: readonly number[]) {
    const counted = this.latencies.flush();
    const latency = summarizeLatency(counted);
    const histogram = encodeLatencyHistogram(counted);
    recycleLatencyHistogram(counted);
    return {
      requests: this.requests,
      latency,
      failures: this.failures,
      non2xx: this.non2xx,
      statusCodes: this.statusCodes,
      bytes: { total: this.totalBytes, body: this.bodyBytes },
      keepAliveResponses: this.keptAlive,
      errorSamples: [...this.errorSamples],
      seconds: this.series.finish(endNs, clientCpuPerSecond),
      histogram,
      ...(this.raw ? { rawSamplesUs: this.raw } : {}),
    };
  }
}
