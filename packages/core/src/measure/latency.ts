import type * as hdr from 'hdr-histogram-js';
import { hdrLibrary } from './hdr-library.js';
import type { EncodedHistogram, LatencyStats } from '../result.js';
import { slotLayout } from './hdr-slots.js';

// Microsecond resolution, exact below 262 ms (5 significant digits), up to one hour.
const HISTOGRAM_OPTIONS = {
  lowestDiscernibleValue: 1,
  highestTrackableValue: 3_600_000_000,
  numberOfSignificantValueDigits: 5,
} as const;

export type LatencyHistogram = hdr.Histogram;

// Histograms given back once read, for createLatencyHistogram to hand out again: each holds 8 MB of counts, and a run
// that made three and dropped them made V8 collect the whole heap of a load thread every run (docs/measurements.md,
// "The wire engine, a warm thread"). A thread keeps a few; the pages of counts it never touched cost no resident memory.
const spares: LatencyHistogram[] = [];
const MAX_SPARES = 4;
const made = new WeakSet<LatencyHistogram>();

// What hdr-histogram-js's reset() sets, set here: its reset() zeroes all 2 million counts, touching every page of them
interface Resettable {
  readonly _counts: Uint32Array;
  setTotalCount(count: number): void;
  countsArrayIndex(value: number): number;
  startTimeStampMsec: number;
  endTimeStampMsec: number;
  tag: string;
  maxValue: number;
  minNonZeroValue: number;
}
type FreshFields = Pick<Resettable, 'startTimeStampMsec' | 'endTimeStampMsec' | 'tag' | 'maxValue' | 'minNonZeroValue'>;
let fresh: FreshFields | undefined;

export function createLatencyHistogram(): LatencyHistogram {
  const spare = spares.pop();
  if (spare) return spare;
  const histogram = hdrLibrary().build(HISTOGRAM_OPTIONS);
  const { startTimeStampMsec, endTimeStampMsec, tag, maxValue, minNonZeroValue } = histogram as unknown as Resettable;
  fresh ??= { startTimeStampMsec, endTimeStampMsec, tag, maxValue, minNonZeroValue };
  made.add(histogram);
  return histogram;
}

/**
 * Gives back a histogram that createLatencyHistogram made, once nothing will read it again: emptied (its counts zeroed
 * up to its highest value) and its fields as a new one's, it is handed out again. Any other histogram is destroyed.
 */
export function recycleLatencyHistogram(histogram: LatencyHistogram): void {
  if (spares.includes(histogram)) return;
  if (!fresh || !made.has(histogram) || spares.length >= MAX_SPARES) {
    histogram.destroy();
    return;
  }
  const h = histogram as unknown as Resettable;
  if (histogram.totalCount > 0) h._counts.fill(0, 0, h.countsArrayIndex(histogram.maxValue) + 1);
  h.setTotalCount(0);
  h.startTimeStampMsec = fresh.startTimeStampMsec;
  h.endTimeStampMsec = fresh.endTimeStampMsec;
  h.tag = fresh.tag;
  h.maxValue = fresh.maxValue;
  h.minNonZeroValue = fresh.minNonZeroValue;
  spares.push(histogram);
}

/** Records one response time given in milliseconds (as autocannon reports it). */
export function recordMilliseconds(histogram: LatencyHistogram, ms: number): void {
  histogram.recordValue(Math.max(1, Math.round(ms * 1000)));
}

const toMs = (us: number) => Math.round(us) / 1000;

// What hdr-histogram-js's histograms offer beyond their typings: the counts by index and the values of an index.
interface CountsByIndex {
  countsArrayIndex(value: number): number;
  getCountAtIndex(index: number): number;
  valueFromIndex(index: number): number;
  highestEquivalentValue(value: number): number;
  lowestEquivalentValue(value: number): number;
}

const PERCENTILES = [50, 66, 75, 80, 90, 95, 98, 99, 99.9] as const;
const ulp = (x: number) => 2 ** (Math.floor(Math.log2(x)) - 52);
// the count a percentile reaches, rounded up as HdrHistogram rounds it (with care for the ulp its floating point adds)
const countAtPercentile = (percentile: number, total: number) => {
  const fp = (percentile / 100) * total;
  return Math.max(Math.ceil(fp - ulp(fp)), 1);
};

/** The figures read off a histogram's counts: the values at PERCENTILES, the mean and the sum of squared deviations. */
interface CountsSummary {
  readonly found: number[];
  readonly mean: number;
  readonly deviation: number;
}

/**
 * The figures read straight off the counts of a histogram that discerns 1: its slots' values by integer arithmetic, in
 * a loop over a typed array that skips empty slots (a 5-digit histogram has two million; a run at 3,000 connections
 * fills slots up to about 500,000, and calling through the histogram for each cost 14-37 ms a summary here).
 */
function summarizeCounts(counts: ArrayLike<number>, last: number, half: number, total: number, targets: readonly number[]): CountsSummary {
  const found: number[] = [];
  const firstShifted = 2 << half;
  let cumulative = 0;
  let sum = 0;
  for (let i = 0; i <= last; i++) {
    const count = counts[i]!;
    if (count === 0) continue;
    const shift = i < firstShifted ? 0 : (i >>> half) - 1;
    const width = 2 ** shift;
    const lowest = (i - (shift << half)) * width;
    cumulative += count;
    while (found.length < targets.length && cumulative >= targets[found.length]!) found.push(lowest + width - 1);
    sum += (lowest + Math.floor(width / 2)) * count;
  }
  const mean = sum / total;
  // a second pass for the deviation from the mean, as HdrHistogram reads it
  let deviation = 0;
  for (let i = 0; i <= last; i++) {
    const count = counts[i]!;
    if (count === 0) continue;
    const shift = i < firstShifted ? 0 : (i >>> half) - 1;
    const width = 2 ** shift;
    deviation += ((i - (shift << half)) * width + Math.floor(width / 2) - mean) ** 2 * count;
  }
  return { found, mean, deviation };
}

/** The same figures through the histogram's own methods, for a histogram that does not discern 1. */
function summarizeByIndex(h: CountsByIndex, last: number, total: number, targets: readonly number[]): CountsSummary {
  const median = (i: number) => {
    const lowest = h.valueFromIndex(i);
    return lowest + Math.floor((h.highestEquivalentValue(lowest) + 1 - lowest) / 2);
  };
  const found: number[] = [];
  let cumulative = 0;
  let sum = 0;
  for (let i = 0; i <= last; i++) {
    const count = h.getCountAtIndex(i);
    if (count === 0) continue;
    cumulative += count;
    while (found.length < targets.length && cumulative >= targets[found.length]!) found.push(h.highestEquivalentValue(h.valueFromIndex(i)));
    sum += median(i) * count;
  }
  const mean = sum / total;
  let deviation = 0;
  for (let i = 0; i <= last; i++) {
    const count = h.getCountAtIndex(i);
    if (count !== 0) deviation += (median(i) - mean) ** 2 * count;
  }
  return { found, mean, deviation };
}

/**
 * The percentiles bench reports (ab's table plus p99.9), in milliseconds: HdrHistogram's own values (mean, standard
 * deviation and percentiles as getValueAtPercentile gives them), read in one pass over the counts instead of one
 * per figure (a 5-digit histogram has two million slots; the library walks them a dozen times).
 */
export function summarizeLatency(histogram: LatencyHistogram): LatencyStats {
  const total = histogram.totalCount;
  if (total === 0) {
    return { mean: 0, stdev: 0, min: 0, p50: 0, p66: 0, p75: 0, p80: 0, p90: 0, p95: 0, p98: 0, p99: 0, p999: 0, max: 0 };
  }
  const h = histogram as unknown as CountsByIndex;
  const slots = slotLayout(histogram);
  const counts = (histogram as unknown as { _counts?: unknown })._counts;
  const targets = PERCENTILES.map((p) => countAtPercentile(p, total));
  const last = h.countsArrayIndex(histogram.maxValue);
  const { found, mean, deviation } =
    slots && ArrayBuffer.isView(counts)
      ? summarizeCounts(counts as unknown as ArrayLike<number>, last, slots.subBucketHalfCountMagnitude, total, targets)
      : summarizeByIndex(h, last, total, targets);
  // the min and max as the histogram tells values apart (HdrHistogram's own getMinNonZeroValue and getMaxValue): the
  // ends of their buckets, so a histogram merged from its threads' encodings, which keep the buckets only, reads as the
  // one that recorded the values (above 262 ms a bucket spans 2 µs or more)
  const max = h.highestEquivalentValue(histogram.maxValue);
  const at = (k: number) => toMs(found[k] ?? max);
  return {
    mean: toMs(mean),
    stdev: toMs(Math.sqrt(deviation / total)),
    min: toMs(h.lowestEquivalentValue(histogram.minNonZeroValue)),
    p50: at(0),
    p66: at(1),
    p75: at(2),
    p80: at(3),
    p90: at(4),
    p95: at(5),
    p98: at(6),
    p99: at(7),
    p999: at(8),
    max: toMs(max),
  };
}

/** The histogram in HdrHistogram's compressed base64 form (what its Java, Go and Python ports read). */
export function encodeLatencyHistogram(histogram: LatencyHistogram): EncodedHistogram {
  return { encoding: 'hdr-compressed-base64', unit: 'us', data: hdrLibrary().encodeIntoCompressedBase64(histogram) };
}

export function decodeLatencyHistogram(encoded: EncodedHistogram): LatencyHistogram {
  return hdrLibrary().decodeFromCompressedBase64(encoded.data, 32, false);
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
