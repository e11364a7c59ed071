import { createLatencyHistogram, emptyFailures, encodeLatencyHistogram, summarizeLatency, type LoadMeasurement } from '@bench/core';
import { describe, expect, it } from 'vitest';
import { mergeThreads, splitShape, type ThreadMeasurement } from './merge-threads.js';

const shape = { connections: 7, keepAlive: true, timeoutSeconds: 5 };

// A thread's measurement from its latencies (µs), started `startNs` in, one second per `perSecond` entry.
function thread(latenciesUs: number[], startNs: bigint, perSecond: number[]): LoadMeasurement {
  const h = createLatencyHistogram();
  for (const us of latenciesUs) h.recordValue(us);
  const m: LoadMeasurement = {
    durationSeconds: perSecond.length,
    requests: latenciesUs.length,
    latency: summarizeLatency(h),
    failures: { ...emptyFailures(), connect: 1 },
    non2xx: 0,
    statusCodes: { 200: latenciesUs.length },
    bytes: { total: 10 * latenciesUs.length, body: latenciesUs.length },
    errorSamples: ['ECONNREFUSED'],
    client: { cpuPercent: 80, rssBytes: 1, processes: 1 },
    seconds: perSecond.map((requests, t) => ({
      t,
      seconds: 1,
      requests,
      non2xx: 0,
      failures: emptyFailures(),
      latency: { p50: 1, p90: 2, p99: 3, max: 4 + t },
      clientCpuPercent: 80,
    })),
    startedAtNs: startNs,
    histogram: encodeLatencyHistogram(h),
  };
  h.destroy();
  return m;
}

describe('client threads', () => {
  it('share the connections and a request count as evenly as whole numbers allow', () => {
    expect(splitShape(shape, 2).map((s) => s.connections)).toEqual([4, 3]);
    expect(splitShape({ ...shape, requests: 1001 }, 3).map((s) => [s.connections, s.requests])).toEqual([
      [3, 334],
      [2, 334],
      [2, 333],
    ]);
    expect(splitShape({ ...shape, connections: 1 }, 4)).toHaveLength(1);
    expect(splitShape({ ...shape, rate: 1001 }, 2).map((s) => s.rate)).toEqual([500.5, 500.5]);
  });

  it('merge an open loop’s uncorrected histograms, rates and dropped requests too', () => {
    const open = (latenciesUs: number[], achieved: number, dropped: number): ThreadMeasurement => {
      const h = createLatencyHistogram();
      for (const us of latenciesUs) h.recordValue(us);
      const m = { ...thread(latenciesUs, 0n, [latenciesUs.length]), rate: { target: 500, achieved }, droppedRequests: dropped };
      const encoded = encodeLatencyHistogram(h);
      h.destroy();
      return { ...m, latencyUncorrected: m.latency, uncorrectedHistogram: encoded };
    };
    const merged = mergeThreads([open([100, 200, 300], 499.5, 1), open([10_000], 500, 2)]);
    const pooled = createLatencyHistogram();
    for (const us of [100, 200, 300, 10_000]) pooled.recordValue(us);
    expect(merged.latencyUncorrected).toEqual(summarizeLatency(pooled));
    pooled.destroy();
    expect(merged.rate).toEqual({ target: 1000, achieved: 999.5 });
    expect(merged.droppedRequests).toBe(3);
  });

  it('merge into one measurement: counts add, the histogram holds every sample, seconds add by t on one clock', () => {
    const a = Array.from({ length: 900 }, (_, i) => 100 + i);
    const b = Array.from({ length: 100 }, (_, i) => 50_000 + i * 10);
    const merged = mergeThreads([thread(a, 1_000_000_000n, [500, 400]), thread(b, 1_020_000_000n, [60, 40])]);
    const pooled = createLatencyHistogram();
    for (const us of [...a, ...b]) pooled.recordValue(us);
    expect(merged.latency).toEqual(summarizeLatency(pooled));
    pooled.destroy();
    expect(merged).toMatchObject({
      requests: 1000,
      statusCodes: { 200: 1000 },
      bytes: { total: 10_000, body: 1000 },
      errorSamples: ['ECONNREFUSED'],
    });
    expect(merged.failures.connect).toBe(2);
    expect(merged.seconds?.map((s) => s.requests)).toEqual([560, 440]);
    // one process's CPU, read by both threads: not doubled
    expect(merged.client?.cpuPercent).toBe(80);
    expect(merged.startedAtNs).toBe(1_000_000_000n);
    expect(merged.durationSeconds).toBeCloseTo(2.02, 6);
  });
});
