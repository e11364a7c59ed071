import { describe, expect, it } from 'vitest';
import {
  createLatencyHistogram,
  decodeLatencyHistogram,
  encodeLatencyHistogram,
  mergeLatencyHistograms,
  percentileCurve,
  summarizeLatency,
  type LatencyHistogram,
} from './latency.js';
import { seededRandom as random } from '../random/seeded-random.js';

/** Latencies in microseconds, log-normal-ish around `medianUs`, capped at `maxUs`. */
function samples(seed: number, count: number, medianUs: number, maxUs: number): number[] {
  const next = random(seed);
  return Array.from({ length: count }, () => Math.min(maxUs, Math.max(1, Math.round(medianUs * Math.exp(2 * (next() - 0.5) * 3)))));
}

/** Every figure equal, but the max, which a decoded histogram knows to its bucket only: within 5 significant digits past 262 ms. */
function expectSameSummary(actual: LatencyHistogram, expected: LatencyHistogram): void {
  const { max: actualMax, ...actualRest } = summarizeLatency(actual);
  const { max: expectedMax, ...expectedRest } = summarizeLatency(expected);
  expect(actualRest).toEqual(expectedRest);
  expect(Math.abs(actualMax - expectedMax)).toBeLessThanOrEqual(expectedMax / 1e5);
}

function histogramOf(values: readonly number[]): LatencyHistogram {
  const h = createLatencyHistogram();
  for (const us of values) h.recordValue(us);
  return h;
}

/** The nearest-rank percentile of raw samples, in ms (HdrHistogram's definition: the smallest value with p% at or below it). */
function rawPercentile(sorted: readonly number[], p: number): number {
  // the rank in integers (p has at most one decimal): (p/100)*n in floating point can land a hair above a whole rank
  return sorted[Math.max(1, Math.ceil((Math.round(p * 10) * sorted.length) / 1000)) - 1]! / 1000;
}

const PERCENTILES = [
  ['p50', 50],
  ['p66', 66],
  ['p75', 75],
  ['p80', 80],
  ['p90', 90],
  ['p95', 95],
  ['p98', 98],
  ['p99', 99],
  ['p999', 99.9],
] as const;

describe('latency histogram encoding', () => {
  it('decodes to the same count and the same percentiles as the run summarized', () => {
    // up to 20 s: past the range kept exactly (262 ms), where values share buckets
    const h = histogramOf(samples(1, 50_000, 3_000, 20_000_000));
    const encoded = encodeLatencyHistogram(h);
    expect(encoded).toMatchObject({ encoding: 'hdr-compressed-base64', unit: 'us' });
    const decoded = decodeLatencyHistogram(encoded);
    expect(decoded.totalCount).toBe(50_000);
    expectSameSummary(decoded, h);
    expect(percentileCurve(decoded).slice(0, -1)).toEqual(percentileCurve(h).slice(0, -1));
    // below 262 ms every value is kept exactly, the max too
    const exact = histogramOf(samples(6, 1_000, 3_000, 250_000));
    expect(summarizeLatency(decodeLatencyHistogram(encodeLatencyHistogram(exact)))).toEqual(summarizeLatency(exact));
    exact.destroy();
    h.destroy();
    decoded.destroy();
  });

  it("is HdrHistogram's compressed base64 (the 'HISTFAAA' cookie its ports and tools read)", () => {
    const h = histogramOf([100, 200, 300]);
    const { data } = encodeLatencyHistogram(h);
    expect(data.startsWith('HISTFAAA')).toBe(true);
    expect(Buffer.from(data, 'base64').toString('base64')).toBe(data);
    h.destroy();
  });

  it('merges two runs into the percentiles of their pooled samples, exactly', () => {
    // two repeats that differ (a slower one), every value below 262 ms so the histogram holds them exactly
    const a = samples(2, 20_000, 2_000, 200_000);
    const b = samples(3, 30_000, 9_000, 200_000);
    const ha = histogramOf(a);
    const hb = histogramOf(b);
    const merged = mergeLatencyHistograms([encodeLatencyHistogram(ha), encodeLatencyHistogram(hb)]);
    const pooled = [...a, ...b].sort((x, y) => x - y);
    expect(merged.totalCount).toBe(pooled.length);
    const summary = summarizeLatency(merged);
    for (const [key, p] of PERCENTILES) expect(summary[key], key).toBe(rawPercentile(pooled, p));
    expect(summary.min).toBe(pooled[0]! / 1000);
    expect(summary.max).toBe(pooled.at(-1)! / 1000);
    expect(summary.mean).toBeCloseTo(pooled.reduce((s, v) => s + v, 0) / pooled.length / 1000, 2);
    // and the same as one histogram that saw every sample, over the whole range
    const wideA = samples(4, 10_000, 50_000, 30_000_000);
    const wideB = samples(5, 10_000, 400_000, 30_000_000);
    const wide = mergeLatencyHistograms([encodeLatencyHistogram(histogramOf(wideA)), encodeLatencyHistogram(histogramOf(wideB))]);
    const all = histogramOf([...wideA, ...wideB]);
    expectSameSummary(wide, all);
    expect(percentileCurve(wide).slice(0, -1)).toEqual(percentileCurve(all).slice(0, -1));
    for (const h of [ha, hb, merged, wide, all]) h.destroy();
  });

  it('merges an empty run as nothing', () => {
    const empty = createLatencyHistogram();
    const one = histogramOf([1_000, 2_000]);
    const merged = mergeLatencyHistograms([encodeLatencyHistogram(empty), encodeLatencyHistogram(one)]);
    expect(merged.totalCount).toBe(2);
    expect(summarizeLatency(merged)).toEqual(summarizeLatency(one));
    expect(summarizeLatency(mergeLatencyHistograms([encodeLatencyHistogram(empty)])).p99).toBe(0);
    for (const h of [empty, one, merged]) h.destroy();
  });
});
