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

// Ways to arrange n1 + n2 distinct values so that the first sample's U equals u, for every u (the exact null distribution).
function exactCounts(n1: number, n2: number): number[] {
  // counts[i][j] over u, built up by the recursion f(i, j, u) = f(i - 1, j, u - j) + f(i, j - 1, u)
  let previous: number[][] = Array.from({ length: n2 + 1 }, () => [1]);
  for (let i = 1; i <= n1; i++) {
    const current: number[][] = [[1]];
    for (let j = 1; j <= n2; j++) {
      const size = i * j + 1;
      const row = new Array<number>(size).fill(0);
      const withoutJ = current[j - 1]!;
      const withoutI = previous[j]!;
      for (let u = 0; u < size; u++) row[u] = (withoutJ[u] ?? 0) + (u >= j ? (withoutI[u - j] ?? 0) : 0);
      current.push(row);
    }
    previous = current;
  }
  return previous[n2]!;
}

/**
 * Two-sided p-value of the Mann-Whitney U test: exact for small samples without ties (up to 20 a
 * side), else by the normal approximation with the tie and continuity corrections.
 */
export function mannWhitneyP(a: readonly number[], b: readonly number[]): number {
  const n1 = a.length;
  const n2 = b.length;
  if (n1 === 0 || n2 === 0) return 1;
  const { ranks, tieTerm } = midranks([...a, ...b]);
  let rankSumA = 0;
  for (let i = 0; i < n1; i++) rankSumA += ranks[i]!;
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const mean = (n1 * n2) / 2;
  if (tieTerm === 0 && n1 <= 20 && n2 <= 20) {
    const counts = exactCounts(n1, n2);
    const total = counts.reduce((sum, c) => sum + c, 0);
    const extreme = Math.min(u, n1 * n2 - u);
    let tail = 0;
    for (let k = 0; k <= extreme; k++) tail += counts[k]!;
    return Math.min(1, (2 * tail) / total);
  }
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (variance <= 0) return 1; // every value equal
  const z = Math.max(0, Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
  return Math.min(1, Math.max(0, 2 * (1 - normalCdf(z))));
}
