import autocannon from 'autocannon';
import { createLatencyHistogram, recordMilliseconds, summarizeLatency } from './latency.js';
import { countError, emptyFailures, type FailureCounts } from './failures.js';
import { installBodyCheck, installConnectionPolicy } from './client-setup.js';
import type { EventEmitter } from 'node:events';
import type { LatencyStats } from '@bench/core';

// autocannon's instance is an EventEmitter that is also a promise; its typings only say the latter.
type AutocannonInstance = EventEmitter & PromiseLike<unknown> & { stop(): void };

export interface LoadOptions {
  readonly url: string;
  readonly connections: number;
  /** Run for this long... */
  readonly durationSeconds?: number;
  /** ...or until this many requests were sent. */
  readonly requests?: number;
  readonly keepAlive: boolean;
  readonly expectedBody: Buffer;
  /** Seconds without an answer before a request counts as timed out. */
  readonly timeoutSeconds: number;
  readonly onProgress?: (progress: LoadProgress) => void;
  readonly signal?: AbortSignal;
}

export interface LoadProgress {
  readonly elapsedSeconds: number;
  readonly requests: number;
}

export interface LoadMeasurement {
  readonly durationSeconds: number;
  readonly requests: number;
  readonly latency: LatencyStats;
  readonly failures: FailureCounts;
  readonly non2xx: number;
  readonly statusCodes: Record<string, number>;
  readonly bytes: { readonly total: number; readonly body: number };
  /** Responses after which the connection stayed open (ab's "Keep-Alive requests"). */
  readonly keepAliveResponses: number;
  /** A few distinct error messages seen, for the report. */
  readonly errorSamples: readonly string[];
}

// Text bodies are compared byte for byte; binary ones (which autocannon mangles into a string) by length.
function expectedText(body: Buffer): string | undefined {
  const text = body.toString('utf8');
  return Buffer.byteLength(text) === body.length && !text.includes('\uFFFD') ? text : undefined;
}

/** One autocannon run against one URL; every response is timed into a microsecond histogram. */
export async function runLoad(options: LoadOptions): Promise<LoadMeasurement> {
  const histogram = createLatencyHistogram();
  const failures: FailureCounts = emptyFailures();
  const statusCodes: Record<string, number> = {};
  const errorSamples = new Set<string>();
  let requests = 0;
  let non2xx = 0;
  let totalBytes = 0;
  let bodyBytes = 0;
  let keptAlive = 0;
  const text = expectedText(options.expectedBody);

  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.requests !== undefined ? { amount: options.requests } : { duration: options.durationSeconds ?? 10 }),
    timeout: options.timeoutSeconds,
    pipelining: 1,
    sampleInt: 100,
    // bench reports its own numbers; autocannon's aggregate (whole-millisecond histograms) is not needed
    skipAggregateResult: true,
    setupClient: (client: unknown) => {
      const c = client as Parameters<typeof installBodyCheck>[0];
      installBodyCheck(c, {
        expectedLength: options.expectedBody.length,
        expectedText: text,
        onBody: (length, matches) => {
          bodyBytes += length;
          if (!matches) failures.length++;
        },
      });
      installConnectionPolicy(c, options.keepAlive, () => keptAlive++);
    },
  } as autocannon.Options) as unknown as AutocannonInstance;

  let started = process.hrtime.bigint();
  let lastResponse = started;
  instance.on('start', () => {
    started = process.hrtime.bigint();
    lastResponse = started;
  });
  instance.on('response', (_client: unknown, statusCode: number, resBytes: number, responseTime: number) => {
    requests++;
    totalBytes += resBytes;
    statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
    if (statusCode < 200 || statusCode >= 300) non2xx++;
    recordMilliseconds(histogram, responseTime);
    lastResponse = process.hrtime.bigint();
  });
  instance.on('reqError', (error: unknown) => {
    countError(failures, error);
    if (errorSamples.size < 5) errorSamples.add(error instanceof Error ? error.message : String(error));
  });
  const progress = setInterval(() => {
    options.onProgress?.({ elapsedSeconds: Number(process.hrtime.bigint() - started) / 1e9, requests });
  }, 1000);
  const abort = () => instance.stop();
  options.signal?.addEventListener('abort', abort, { once: true });
  if (options.signal?.aborted) abort();

  try {
    await instance;
  } finally {
    clearInterval(progress);
    options.signal?.removeEventListener('abort', abort);
  }
  const finished = process.hrtime.bigint();
  // With -n the run ends at the last answer (as ab measures); with -d at the end of the period.
  const end = options.requests !== undefined ? lastResponse : finished;
  const durationSeconds = Math.max(Number(end - started) / 1e9, 1e-6);
  const latency = summarizeLatency(histogram);
  histogram.destroy();
  return {
    durationSeconds,
    requests,
    latency,
    failures,
    non2xx,
    statusCodes,
    bytes: { total: totalBytes, body: bodyBytes },
    keepAliveResponses: keptAlive,
    errorSamples: [...errorSamples],
  };
}
