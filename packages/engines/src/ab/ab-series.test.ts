import { describe, expect, it } from 'vitest';
import { createLatencyHistogram } from '@bench/core';
import type { ExternalRun } from '../external-process.js';
import { abSeries } from './ab-series.js';

const HEADER = 'starttime\tseconds\tctime\tdtime\tttime\twait';
const record = (second: number, ms: number) => `Mon Nov 23 21:01:32 2026\t${second}\t0\t${ms}\t${ms}\t${ms}`;

function run(spawnedAtMs: number, spawnedAtNs: bigint, cpuFrom: bigint[]): ExternalRun {
  return {
    exit: { code: 0, signal: null },
    stdout: '',
    outputTail: '',
    spawnedAtMs,
    spawnedAtNs,
    clientCpuPerSecond: (startNs: bigint) => {
      cpuFrom.push(startNs);
      return [5, 6, 7];
    },
  };
}

describe("ab's per-request records, second by second", () => {
  it('buckets requests by the epoch second they started in, from the first one, the first second covering what followed the spawn', () => {
    const tsv = [
      HEADER,
      record(1_000_001, 4),
      record(1_000_000, 1),
      record(1_000_000, 2),
      record(1_000_002, 9),
      record(1_000_000, 3),
      record(1_000_001, 5),
      '',
    ].join('\n');
    const histogram = createLatencyHistogram();
    const cpuFrom: bigint[] = [];
    // spawned half-way into epoch second 1,000,000; ab ran 2.2 s
    const series = abSeries(tsv, run(1_000_000_500, 10_000_000_000n, cpuFrom), 2.2, histogram);
    expect(series?.startedAtNs).toBe(9_500_000_000n);
    expect(cpuFrom).toEqual([9_500_000_000n]);
    expect(series?.seconds.map((s) => [s.t, s.seconds, s.requests, s.latency?.max, s.clientCpuPercent])).toEqual([
      [0, 0.5, 3, 3, 5],
      [1, 1, 2, 5, 6],
      [2, 0.7, 1, 9, 7],
    ]);
    expect(histogram.totalCount).toBe(6);
    histogram.destroy();
  });

  it('has no seconds when no request finished', () => {
    const histogram = createLatencyHistogram();
    expect(abSeries(`${HEADER}\n`, run(1_000_000_500, 1n, []), 1, histogram)).toBeUndefined();
    expect(histogram.totalCount).toBe(0);
  });
});
