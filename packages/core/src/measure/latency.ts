import * as hdr from 'hdr-histogram-js';
import type { EncodedHistogram, LatencyStats } from '../result.js';

// Microsecond resolution, exact below 262 ms (5 significant digits), up to one hour.
const HISTOGRAM_OPTIONS = {
  lowestDiscernibleValue: 1,
  highestTrackableValue: 3_600_000_000,
  numberOfSignificantValueDigits: 5,
} as const;

export type LatencyHistogram = hdr.Histogram;

export function createLatencyHistogram(): LatencyHistogram {
  return hdr.build(HISTOGRAM_OPTIONS);
}

/** Records one response time given in milliseconds (as autocannon reports it). */
export function recordMilliseconds(histogram: LatencyHistogram, ms: number): void {
  histogram.recordValue(Math.max(1, Math.round(ms * 1000)));
}

const toMs = (us: number) => Math.round(us) / 1000;

/** The percentiles bench reports (ab's table plus p99.9), in milliseconds. */
export function summarizeLatency(histogram: LatencyHistogram): LatencyStats {
  if (histogram.totalCount === 0) {
    return { mean: 0, stdev: 0, min: 0, p50: 0, p66: 0, p75: 0, p80: 0, p90: 0, p95: 0, p98: 0, p99: 0, p999: 0, max: 0 };
  }
  const at = (p: number) => toMs(histogram.getValueAtPercentile(p));
  return {
    mean: toMs(histogram.mean),
    stdev: toMs(histogram.stdDeviation),
    min: toMs(histogram.minNonZeroValue),
    p50: at(50),
    p66: at(66),
    p75: at(75),
    p80: at(80),
    p90: at(90),
    p95: at(95),
    p98: at(98),
    p99: at(99),
    p999: at(99.9),
    max: toMs(histogram.maxValue),
  };
}

/** The histogram in HdrHistogram's compressed base64 form (what its Java, Go and Python ports read). */
export function encodeLatencyHistogram(histogram: LatencyHistogram): EncodedHistogram {
  return { encoding: 'hdr-compressed-base64', unit: 'us', data: hdr.encodeIntoCompressedBase64(histogram) };
}

export function decodeLatencyHistogram(encoded: EncodedHistogram): LatencyHistogram {
  return hdr.decodeFromCompressedBase64(encoded.data, 32, false);
}

/** One histogram holding every sample of these (repeats, client threads, generators): exact, unlike averaging percentiles. */
export function mergeLatencyHistograms(encoded: readonly EncodedHistogram[]): LatencyHistogram {
  const merged = createLatencyHistogram();
  for (const one of encoded) {
    const histogram = decodeLatencyHistogram(one);
    merged.add(histogram);
    histogram.destroy();
  }
  return merged;
}

/** Percentiles along a log 1/(1-p) axis (p50 ... p99.99 and the max), in milliseconds, for drawing the distribution. */
export function percentileCurve(histogram: LatencyHistogram, nines = 4, stepsPerNine = 8): Array<{ percentile: number; ms: number }> {
  if (histogram.totalCount === 0) return [];
  const points: Array<{ percentile: number; ms: number }> = [];
  // from 1/(1-p) = 2 (p50) to 10^nines (p99.99), evenly spaced on a log axis
  const steps = Math.round((nines - Math.log10(2)) * stepsPerNine);
  for (let i = 0; i <= steps; i++) {
    const inverse = 2 * 10 ** ((i / steps) * (nines - Math.log10(2)));
    const percentile = 100 * (1 - 1 / inverse);
    points.push({ percentile: Math.round(percentile * 1e4) / 1e4, ms: toMs(histogram.getValueAtPercentile(percentile)) });
  }
  points.push({ percentile: 100, ms: toMs(histogram.maxValue) });
  return points;
}
