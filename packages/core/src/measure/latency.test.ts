import { describe, expect, it } from 'vitest';
import { createLatencyHistogram, recordMilliseconds, summarizeLatency } from './latency.js';

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

  it('gives zeros, not NaN, when nothing was recorded', () => {
    const s = summarizeLatency(createLatencyHistogram());
    expect(Object.values(s).every((v) => v === 0)).toBe(true);
  });
});
