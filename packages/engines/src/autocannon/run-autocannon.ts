import autocannon from 'autocannon';
import {
  bodyTextCheck,
  createLatencyHistogram,
  encodeLatencyHistogram,
  recordMilliseconds,
  SeriesRecorder,
  summarizeLatency,
  countError,
  emptyFailures,
  watchGeneratorHealth,
  type LoadPlan,
} from '@bench/core';
import { installBodyCheck, installConnectionPolicy } from './client-setup.js';
import type { EventEmitter } from 'node:events';
import type { ThreadMeasurement } from '../threads/merge-threads.js';
import type { ThreadSlot } from '../threads/serve-thread.js';

// autocannon's instance is an EventEmitter that is also a promise; its typings only say the latter.
type AutocannonInstance = EventEmitter & PromiseLike<unknown> & { stop(): void };

// Bytes that survive a round trip through a string: autocannon hands bodies over as text.
function isText(bytes: Buffer): boolean {
  const text = bytes.toString('utf8');
  return Buffer.byteLength(text) === bytes.length && !text.includes('\uFFFD');
}

/** One autocannon run against one URL, in this thread; every response is timed into a microsecond histogram. */
export async function runAutocannon(plan: LoadPlan, slot: Pick<ThreadSlot, 'rawSamples'> = {}): Promise<ThreadMeasurement> {
  const { shape, request } = plan;
  const histogram = createLatencyHistogram();
  const failures = emptyFailures();
  const statusCodes: Record<string, number> = {};
  const errorSamples = new Set<string>();
  let requests = 0;
  let non2xx = 0;
  let totalBytes = 0;
  let bodyBytes = 0;
  let keptAlive = 0;
  const series = new SeriesRecorder(undefined, { live: true });
  const check = bodyTextCheck(plan.expect);
  const binaryBody = plan.expect.kind === 'exact' && !isText(plan.expect.bytes());
  // test mode only: every latency as recorded (µs), so a test can check merged percentiles against the pooled samples
  const raw: number[] | undefined = slot.rawSamples ? [] : undefined;

  const instance = autocannon({
    url: plan.url,
    method: request.method,
    headers: { ...request.headers },
    ...(request.body ? { body: request.body } : {}),
    connections: shape.connections,
    ...(shape.requests !== undefined ? { amount: shape.requests } : { duration: shape.durationSeconds ?? 10 }),
    timeout: shape.timeoutSeconds,
    pipelining: 1,
    sampleInt: 100,
    // bench reports its own numbers; autocannon's aggregate (whole-millisecond histograms) is not needed
    skipAggregateResult: true,
    setupClient: (client: unknown) => {
      const c = client as Parameters<typeof installBodyCheck>[0];
      installBodyCheck(c, {
        check,
        lengthFromHeaders: binaryBody,
        ...(plan.expect.kind === 'exact' ? { lengthWhenMatched: plan.expect.length } : {}),
        onBody: (length, matches) => {
          bodyBytes += length;
          if (!matches) {
            failures.length++;
            series.failure('length');
          }
        },
      });
      installConnectionPolicy(c, shape.keepAlive, () => keptAlive++, shape.requestsPerConnection);
    },
  } as autocannon.Options) as unknown as AutocannonInstance;

  let started = process.hrtime.bigint();
  let lastResponse = started;
  instance.on('start', () => {
    started = process.hrtime.bigint();
    lastResponse = started;
    series.restart(started);
  });
  instance.on('response', (_client: unknown, statusCode: number, resBytes: number, responseTime: number) => {
    requests++;
    totalBytes += resBytes;
    statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
    if (statusCode < 200 || statusCode >= 300) non2xx++;
    recordMilliseconds(histogram, responseTime);
    raw?.push(Math.max(1, Math.round(responseTime * 1000)));
    lastResponse = process.hrtime.bigint();
    series.response(responseTime * 1000, statusCode >= 200 && statusCode < 300, lastResponse);
  });
  instance.on('reqError', (error: unknown) => {
    series.failure(countError(failures, error));
    if (errorSamples.size < 5) errorSamples.add(error instanceof Error ? error.message : String(error));
  });
  const progress = setInterval(() => {
    plan.onProgress?.({ elapsedSeconds: Number(process.hrtime.bigint() - started) / 1e9, requests });
  }, 1000);
  const abort = () => instance.stop();
  plan.signal?.addEventListener('abort', abort, { once: true });
  if (plan.signal?.aborted) abort();
  const health = watchGeneratorHealth();

  try {
    await instance;
  } finally {
    clearInterval(progress);
    plan.signal?.removeEventListener('abort', abort);
  }
  const cpuPerSecond = health.cpuPerSecond();
  const generator = health.stop();
  const finished = process.hrtime.bigint();
  // With -n the run ends at the last answer (as ab measures); with -d at the end of the period.
  const end = shape.requests !== undefined ? lastResponse : finished;
  const durationSeconds = Math.max(Number(end - started) / 1e9, 1e-6);
  const latency = summarizeLatency(histogram);
  const encoded = encodeLatencyHistogram(histogram);
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
    ...generator,
    seconds: series.finish(end, cpuPerSecond),
    startedAtNs: started,
    histogram: encoded,
    ...(raw ? { rawSamplesUs: raw } : {}),
  };
}
