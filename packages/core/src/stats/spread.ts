import { median } from './median.js';

/** The arithmetic mean; NaN for an empty list. */
export function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** The sample standard deviation (n - 1 in the denominator); 0 for fewer than two values. */
export function standardDeviation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return Math.sqrt(values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1));
}

/** Sample standard deviation over mean, in percent; 0 for fewer than two values or a zero mean. */
export function coefficientOfVariation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return m === 0 ? 0 : (standardDeviation(values) / m) * 100;
}

/** Iglewicz and Hoaglin's modified z-scores, 0.6745 (x - median) / MAD; none when the MAD is 0. */
export function modifiedZScores(values: readonly number[]): number[] | undefined {
  const m = median(values);
  const mad = median(values.map((v) => Math.abs(v - m)));
  return mad === 0 ? undefined : values.map((v) => (0.6745 * (v - m)) / mad);
}
