import { seededRandom, type Random } from '../random/seeded-random.js';
import { median } from './median.js';

/** Repeats a side needs before an unpaired comparison of two results files gives a verdict. */
export const MIN_REPEATS = 3;
/**
 * Rounds a paired comparison needs before a verdict. Up to 5 values, the percentile bootstrap of a median is
 * their range, which holds the true median with probability 1 - 2/2^n: 75% at 3 rounds, 94% at 5. At 3, an
 * A/A pair whose three ratios happened to fall beyond -5% was called regressed (seen at 6-8% spread per round).
 */
export const MIN_PAIRED_ROUNDS = 5;

function resample(values: readonly number[], random: Random): number[] {
  return values.map(() => values[Math.floor(random() * values.length)] ?? 0);
}

/**
 * A percentile bootstrap interval of the change in median from `base` to `head`, in percent of the
 * base median: each side resampled with replacement, `rounds` times (criterion's approach, on
 * per-repeat samples: one number per measured run, never per request).
 */
export function bootstrapChangeInterval(
  base: readonly number[],
  head: readonly number[],
  confidence = 0.95,
  rounds = 10_000,
  seed = 1,
): [number, number] {
  const random = seededRandom(seed);
  const changes: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const b = median(resample(base, random));
    const h = median(resample(head, random));
    changes.push(b === 0 ? 0 : ((h - b) / b) * 100);
  }
  changes.sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  return [changes[Math.floor(tail * rounds)] ?? 0, changes[Math.min(rounds - 1, Math.ceil((1 - tail) * rounds) - 1)] ?? 0];
}

/** The 95% (by default) percentile bootstrap interval of the median of one sample, `rounds` resamples. */
export function bootstrapMedianInterval(values: readonly number[], confidence = 0.95, rounds = 4_000, seed = 1): [number, number] {
  const random = seededRandom(seed);
  const n = values.length;
  const mid = Math.floor(n / 2);
  // typed arrays sort numerically without a comparator: this runs in --repeat auto after every round
  const sample = new Float64Array(n);
  const medians = new Float64Array(rounds);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < n; i++) sample[i] = values[Math.floor(random() * n)] ?? 0;
    sample.sort();
    medians[r] = n % 2 ? sample[mid]! : (sample[mid - 1]! + sample[mid]!) / 2;
  }
  medians.sort();
  const tail = (1 - confidence) / 2;
  return [medians[Math.floor(tail * rounds)] ?? 0, medians[Math.min(rounds - 1, Math.ceil((1 - tail) * rounds) - 1)] ?? 0];
}
