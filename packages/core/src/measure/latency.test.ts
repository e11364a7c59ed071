import { describe, expect, it } from 'vitest';
import * as hdr from 'hdr-histogram-js';
import { createLatencyHistogram, encodeLatencyHistogram, mergeLatencyHistograms, recordMilliseconds, summarizeLatency } from './latency.js';

/**
 * The figures HdrHistogram's own methods give, in milliseconds as bench reports them (its getMinNonZeroValue and
 * getMaxValue: the ends of their values' buckets).
 */
function hdrFigures(h: hdr.Histogram) {
  const ms = (us: number) => Math.round(us) / 1000;
  const ends = h as unknown as { lowestEquivalentValue(v: number): number; highestEquivalentValue(v: number): number };
  return {
    mean: ms(h.mean),
    stdev: ms(h.stdDeviation),
    min: ms(ends.lowestEquivalentValue(h.minNonZeroValue)),
    ...Object.fromEntries(
      [50, 66, 75, 80, 90, 95, 98, 99, 99.9].map((p) => [p === 99.9 ? 'p999' : `p${p}`, ms(h.getValueAtPercentile(p))]),
    ),
    max: ms(ends.highestEquivalentValue(h.maxValue)),
  };
}

describe('latency histogram', () => {
  it('reports exact percentiles in milliseconds for microsecond samples', () => {
    const h = createLatencyHistogram();
    // 1..1000 ms in whole milliseconds: p50 is 500 ms, p99 990 ms, max 1000 ms
    for (let ms = 1; ms <= 1000; ms++) recordMilliseconds(h, ms);
    const s = summarizeLatency(h);
    expect(s.min).toBe(1);
    expect(s.p50).toBeCloseTo(500, 1);
    expect(s.p66).toBeCloseTo(660, 0);
    expect(s.p80).toBeCloseTo(800, 0);
    expect(s.p99).toBeCloseTo(990, 0);
    expect(s.p999).toBeCloseTo(999, 0);
    expect(s.max).toBeCloseTo(1000, 0);
    expect(s.mean).toBeCloseTo(500.5, 0);
    expect(s.stdev).toBeCloseTo(288.7, 0);
  });

  it('keeps sub-millisecond resolution', () => {
    const h = createLatencyHistogram();
    recordMilliseconds(h, 0.123);
    recordMilliseconds(h, 0.456);
    const s = summarizeLatency(h);
    expect(s.min).toBe(0.123);
    expect(s.max).toBe(0.456);
    expect(s.p50).toBe(0.123);
  });

  it('reads a histogram merged from its threads’ encodings as the one that recorded the values, above 262 ms too', () => {
    // 778,349 µs falls in a 4 µs bucket: an encoding keeps the bucket, not the value
    const values = [
      [1_200, 778_349],
      [350_001, 2_000],
    ];
    const pooled = createLatencyHistogram();
    const threads = values.map((list) => {
      const h = createLatencyHistogram();
      for (const us of list) {
        h.recordValue(us);
        pooled.recordValue(us);
      }
      return encodeLatencyHistogram(h);
    });
    const merged = mergeLatencyHistograms(threads);
    expect(summarizeLatency(merged)).toEqual(summarizeLatency(pooled));
    expect(summarizeLatency(pooled).max).toBe(778.351);
  });

  it('gives zeros, not NaN, when nothing was recorded', () => {
    const s = summarizeLatency(createLatencyHistogram());
    expect(Object.values(s).every((v) => v === 0)).toBe(true);
  });

  it('reads every figure in one pass exactly as HdrHistogram’s own methods give it', () => {
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (const spread of [1, 50, 5_000, 3_000_000]) {
      const h = createLatencyHistogram();
      for (let i = 0; i < 20_000; i++) h.recordValue(1 + Math.floor(random() ** 3 * spread));
      expect(summarizeLatency(h), `values up to ${spread} µs`).toEqual(hdrFigures(h));
      h.destroy();
    }
  });

  it('reads a histogram that does not discern 1 µs through its own methods, with the same figures as HdrHistogram', () => {
    let seed = 11;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const h = hdr.build({ lowestDiscernibleValue: 1000, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });
    for (let i = 0; i < 20_000; i++) h.recordValue(1000 + Math.floor(random() ** 3 * 3_000_000));
    expect(summarizeLatency(h)).toEqual(hdrFigures(h));
    h.destroy();
  });
});
