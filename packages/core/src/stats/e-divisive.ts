import { studentTTest } from './t-test.js';

// E-Divisive means change-point detection, after Matteson & James, "A Nonparametric Approach for
// Multiple Change Point Analysis of Multivariate Data" (JASA 2014), with the significance of each
// split decided by a two-sample t-test instead of a permutation test, as Hunter/Apache Otava do
// (Fleming et al., "Hunter: Using Change Point Detection to Hunt for Performance Regressions",
// ICPE 2023): deterministic, and fast enough for every series of a history at every check.

export interface ChangePointOptions {
  /** A split is a change point when the t-test between its sides gives at most this p-value. @default 0.001 */
  readonly maxPValue?: number;
  /** Fewest points on each side of a split. @default 3 */
  readonly minSegment?: number;
  /** Exponent of the distances in the energy statistic, 0 < alpha < 2. @default 1 */
  readonly alpha?: number;
}

export interface ChangePoint {
  /** Index of the first point after the change. */
  readonly index: number;
  /** Two-sided p-value of the t-test between the segments on either side (to the neighbouring change points). */
  readonly pValue: number;
  /** Mean of the segment before and after. */
  readonly meanBefore: number;
  readonly meanAfter: number;
  /** (after - before) / before, in percent. */
  readonly changePercent: number;
}

// Sums of |z_i - z_j|^alpha over rectangles of index pairs in O(1), from a 2-D prefix table.
function distanceSums(
  values: readonly number[],
  alpha: number,
): (rowFrom: number, rowTo: number, colFrom: number, colTo: number) => number {
  const n = values.length;
  const width = n + 1;
  const prefix = new Float64Array(width * width);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const d = Math.abs(values[i]! - values[j]!) ** alpha;
      prefix[(i + 1) * width + j + 1] = d + prefix[i * width + j + 1]! + prefix[(i + 1) * width + j]! - prefix[i * width + j]!;
    }
  }
  return (r0, r1, c0, c1) => prefix[r1 * width + c1]! - prefix[r0 * width + c1]! - prefix[r1 * width + c0]! + prefix[r0 * width + c0]!;
}

/**
 * The split of values[start, end) with the largest energy statistic, over the first sample X = [start, tau)
 * and every second sample Y = [tau, kappa) with kappa up to `end` (Matteson & James's tau and kappa: a
 * change that is undone later still stands out against the points right after it):
 * Q = mn/(m+n) * (2/(mn) Σ|x-y|^a - C(m,2)^-1 Σ|x-x'|^a - C(n,2)^-1 Σ|y-y'|^a).
 */
function bestSplit(
  sums: ReturnType<typeof distanceSums>,
  start: number,
  end: number,
  minSegment: number,
): { tau: number; kappa: number } | undefined {
  let best: { tau: number; kappa: number } | undefined;
  let bestQ = -Infinity;
  for (let tau = start + minSegment; tau <= end - minSegment; tau++) {
    const m = tau - start;
    // the full square counts each pair twice
    const withinX = sums(start, tau, start, tau) / 2 / ((m * (m - 1)) / 2);
    for (let kappa = tau + minSegment; kappa <= end; kappa++) {
      const n = kappa - tau;
      const between = sums(start, tau, tau, kappa);
      const withinY = sums(tau, kappa, tau, kappa) / 2;
      const e = (2 * between) / (m * n) - withinX - withinY / ((n * (n - 1)) / 2);
      const q = ((m * n) / (m + n)) * e;
      if (q > bestQ + 1e-12) {
        bestQ = q;
        best = { tau, kappa };
      }
    }
  }
  return best;
}

const mean = (values: readonly number[]) => values.reduce((s, v) => s + v, 0) / values.length;

function describe(values: readonly number[], from: number, index: number, to: number): ChangePoint {
  const before = values.slice(from, index);
  const after = values.slice(index, to);
  const meanBefore = mean(before);
  const meanAfter = mean(after);
  return {
    index,
    pValue: studentTTest(before, after).pValue,
    meanBefore,
    meanAfter,
    changePercent: meanBefore === 0 ? 0 : ((meanAfter - meanBefore) / meanBefore) * 100,
  };
}

/** Change points of a series, in order: where its level shifts, each with its p-value and size. */
export function detectChangePoints(values: readonly number[], options: ChangePointOptions = {}): ChangePoint[] {
  const maxPValue = options.maxPValue ?? 0.001;
  const minSegment = Math.max(2, options.minSegment ?? 3);
  const alpha = options.alpha ?? 1;
  if (values.length < 2 * minSegment) return [];
  const sums = distanceSums(values, alpha);
  // binary segmentation: split the best place of each segment while the split is significant
  const found: number[] = [];
  const segments: Array<[number, number]> = [[0, values.length]];
  while (segments.length > 0) {
    const [start, end] = segments.shift()!;
    const split = bestSplit(sums, start, end, minSegment);
    if (split === undefined) continue;
    const { tau, kappa } = split;
    if (studentTTest(values.slice(start, tau), values.slice(tau, kappa)).pValue > maxPValue) continue;
    found.push(tau);
    segments.push([start, tau], [tau, end]);
  }
  found.sort((a, b) => a - b);
  // each change point tested again between its neighbours; the weakest above the limit goes, until none is
  for (;;) {
    const bounds = [0, ...found, values.length];
    const described = found.map((index, i) => describe(values, bounds[i]!, index, bounds[i + 2]!));
    const weakest = described.reduce<ChangePoint | undefined>(
      (w, c) => (c.pValue > maxPValue && (!w || c.pValue > w.pValue) ? c : w),
      undefined,
    );
    if (!weakest) return described;
    found.splice(found.indexOf(weakest.index), 1);
  }
}
