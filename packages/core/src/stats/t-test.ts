// Student's two-sample t-test, with the t distribution computed from the regularized
// incomplete beta function: p = I_{df/(df+t^2)}(df/2, 1/2) for the two-sided test.

// ln Γ(x) for x > 0: shifted up by the recurrence Γ(x+1) = xΓ(x), then Stirling's series (error < 1e-12 from x >= 10).
function logGamma(x: number): number {
  let shift = 0;
  while (x < 10) {
    shift += Math.log(x);
    x += 1;
  }
  const inv = 1 / x;
  const inv2 = inv * inv;
  const series = inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 / 1680)));
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + series - shift;
}

// The continued fraction of I_x(a, b) (DLMF 8.17.22), evaluated by the modified Lentz method.
function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let f = d;
  for (let m = 1; m <= 300; m++) {
    for (const term of [
      (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m)),
      (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1)),
    ]) {
      d = 1 + term * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + term / c;
      if (Math.abs(c) < tiny) c = tiny;
      f *= c * d;
    }
    if (Math.abs(c * d - 1) < 1e-15) break;
  }
  return f;
}

/** The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(a * Math.log(x) + b * Math.log(1 - x) - (logGamma(a) + logGamma(b) - logGamma(a + b)));
  // the fraction converges fast below (a+1)/(a+b+2); above, by symmetry
  return x < (a + 1) / (a + b + 2) ? (front * betaContinuedFraction(x, a, b)) / a : 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

/** Two-sided p-value of Student's t with df degrees of freedom. */
export function studentTTwoSidedP(t: number, df: number): number {
  if (!Number.isFinite(t)) return 0;
  return regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** The t beyond which Student's t with df degrees of freedom lies with two-sided probability 1 - confidence (df >= 1). */
export function studentTCritical(df: number, confidence = 0.95): number {
  // the two-sided p falls as t grows: bisect between 0 and a t no table reaches (df 1 at 99.99% is 6,366)
  let [low, high] = [0, 1e5];
  for (let i = 0; i < 100; i++) {
    const middle = (low + high) / 2;
    if (studentTTwoSidedP(middle, df) > 1 - confidence) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

export interface TTestResult {
  readonly t: number;
  readonly df: number;
  /** Two-sided. */
  readonly pValue: number;
}

function meanAndVariance(values: readonly number[]): [number, number] {
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1);
  return [mean, variance];
}

/**
 * Student's two-sample t-test with pooled variance; each sample needs at least two values.
 * Pooled, not Welch's: under the null hypothesis of a change-point test both sides come from one
 * distribution, so their variances are equal by hypothesis; Welch's test, trusting the variance of
 * a 3-point side that came out small by chance, flagged 5 to 10 of 100 stationary series here
 * against 1 to 3 with the pooled one (e-divisive.test.ts's series).
 */
export function studentTTest(a: readonly number[], b: readonly number[]): TTestResult {
  if (a.length < 2 || b.length < 2) return { t: 0, df: 0, pValue: 1 };
  const [meanA, varA] = meanAndVariance(a);
  const [meanB, varB] = meanAndVariance(b);
  const df = a.length + b.length - 2;
  const pooled = ((a.length - 1) * varA + (b.length - 1) * varB) / df;
  const se = Math.sqrt(pooled * (1 / a.length + 1 / b.length));
  // two constant samples: different means are certainly different
  if (se === 0) return { t: meanA === meanB ? 0 : Infinity, df, pValue: meanA === meanB ? 1 : 0 };
  const t = (meanA - meanB) / se;
  return { t, df, pValue: studentTTwoSidedP(t, df) };
}
