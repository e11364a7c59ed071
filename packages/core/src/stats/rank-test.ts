// The Mann-Whitney U test (Wilcoxon rank-sum): do two samples come from one distribution? No
// assumption about the shape of either, which suits per-second rps and p99 (skewed, with outliers).

/** Midranks (1-based) of `values`, ties sharing the mean of their ranks, and the sum over tied groups of t³ - t. */
function midranks(values: readonly number[]): { ranks: number[]; tieTerm: number } {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const ranks = new Array<number>(values.length);
  let tieTerm = 0;
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]!.value === order[i]!.value) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]!.index] = rank;
    const t = j - i + 1;
    tieTerm += t * t * t - t;
    i = j + 1;
  }
  return { ranks, tieTerm };
}

// Abramowitz and Stegun 7.1.26: |error| < 1.5e-7, ample for a p-value.
function erf(x: number): number {
  const sign = x < 0 ? -1 : 1;
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return sign * (1 - poly * Math.exp(-a * a));
}

const normalCdf = (z: number) => 0.5 * (1 + erf(z / Math.SQRT2));

/**
 * The exact permutation p-value (two-sided) of the first sample's rank sum: over every way to pick
 * n1 of the pooled midranks, the share at least as far from the mean as the one observed. Midranks
 * are halves at most, so doubled they are integers and a count per (picked, sum) is exact, ties included.
 */
function exactP(doubledRanks: readonly number[], n1: number, observed: number): number {
  const total = doubledRanks.reduce((sum, r) => sum + r, 0);
  // ways[k][s]: subsets of k values summing to s
  const ways: number[][] = Array.from({ length: n1 + 1 }, () => new Array<number>(total + 1).fill(0));
  ways[0]![0] = 1;
  for (const rank of doubledRanks) {
    for (let k = n1; k >= 1; k--) {
      const row = ways[k]!;
      const below = ways[k - 1]!;
      for (let sum = total; sum >= rank; sum--) row[sum]! += below[sum - rank]!;
    }
  }
  const mean = (total * n1) / doubledRanks.length;
  const distance = Math.abs(observed - mean);
  let extreme = 0;
  let all = 0;
  ways[n1]!.forEach((count, sum) => {
    all += count;
    if (Math.abs(sum - mean) >= distance - 1e-9) extreme += count;
  });
  return Math.min(1, extreme / all);
}

/**
 * Two-sided p-value of the Mann-Whitney U test: exact (the permutation distribution of the rank
 * sum, ties included) up to 20 values a side, else by the normal approximation with the tie and
 * continuity corrections.
 */
export function mannWhitneyP(a: readonly number[], b: readonly number[]): number {
  const n1 = a.length;
  const n2 = b.length;
  if (n1 === 0 || n2 === 0) return 1;
  const { ranks, tieTerm } = midranks([...a, ...b]);
  let rankSumA = 0;
  for (let i = 0; i < n1; i++) rankSumA += ranks[i]!;
  if (n1 <= 20 && n2 <= 20)
    return exactP(
      ranks.map((r) => Math.round(r * 2)),
      n1,
      Math.round(rankSumA * 2),
    );
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (variance <= 0) return 1; // every value equal
  const z = Math.max(0, Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
  return Math.min(1, Math.max(0, 2 * (1 - normalCdf(z))));
}
