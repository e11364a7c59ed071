import * as hdr from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import { createLatencyHistogram, encodeLatencyHistogram, summarizeLatency } from './latency.js';
import { LatencyCounter } from './latency-counter.js';

// a deterministic spread from 0 to past the counter's limit, most of it where latencies lie
function values(n: number): number[] {
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, (_, i) => (i % 97 === 0 ? Math.floor(next() * 2 ** 32) : Math.floor(next() ** 3 * 3_000_000)));
}

describe('a latency counter', () => {
  it.each([
    ['the run histogram (5 digits)', () => createLatencyHistogram(), 24],
    [
      'a second (3 digits)',
      () => hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 }),
      31,
    ],
  ] as const)('fills %s as recording each value would, min and max included, flush after flush', (_name, build, bits) => {
    const direct = build();
    const counter = new LatencyCounter(build(), bits);
    for (const part of [[300_001], values(20_000), [0, 1, 2047, 2048, 2049], [7, 7], values(5_000)]) {
      for (const value of part) {
        direct.recordValue(value);
        counter.record(value);
      }
      const counted = counter.flush();
      expect(counted.totalCount).toBe(direct.totalCount);
      expect(counted.maxValue).toBe(direct.maxValue);
      expect(counted.minNonZeroValue).toBe(direct.minNonZeroValue);
      expect(summarizeLatency(counted)).toEqual(summarizeLatency(direct));
      expect(encodeLatencyHistogram(counted)).toEqual(encodeLatencyHistogram(direct));
    }
  });
});
