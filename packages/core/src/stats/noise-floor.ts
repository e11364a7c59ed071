import { MIN_PAIRED_ROUNDS } from './bootstrap.js';

/** Changes `bench noise` says how many rounds it takes to detect. */
export const DETECTABLE_CHANGES = [2, 5, 10] as const;

// z for a two-sided 95% interval, z for 80% power, and the median's inefficiency against the mean for normal
// samples (its standard error is sqrt(pi/2) = 1.2533 times the mean's).
const Z_95 = 1.96;
const Z_POWER_80 = 0.8416;
const MEDIAN_EFFICIENCY = 1.2533;
/** The --max-rounds default an A/A comparison should decide within. */
const ROUNDS_BUDGET = 20;

/**
 * The rounds a paired comparison needs to see a change of `changePercent`, given the per-round ratio spread
 * `ratioSdPercent` (sigma): n = ((z_0.975 + z_0.8) x 1.2533 x sigma / change)^2, the normal-approximation sample
 * size for a 95% interval of the median ratio to clear 0 with 80% power; at least MIN_PAIRED_ROUNDS (the fewest bench decides on).
 */
export function roundsToDetect(ratioSdPercent: number, changePercent: number): number {
  const n = (((Z_95 + Z_POWER_80) * MEDIAN_EFFICIENCY * ratioSdPercent) / changePercent) ** 2;
  return Math.max(MIN_PAIRED_ROUNDS, Math.ceil(n));
}

/**
 * The noise threshold the spread supports: an A/A comparison is called "within noise" when its whole interval
 * (median +- 1.96 standard errors) lies inside +-t; with the median itself off by up to 1.96 standard errors,
 * t = 2 x 1.96 x 1.2533 x sigma / sqrt(20) makes that likely within the default 20 rounds. Rounded up to 0.5%.
 */
export function supportedThreshold(ratioSdPercent: number, rounds = ROUNDS_BUDGET): number {
  const t = (2 * Z_95 * MEDIAN_EFFICIENCY * ratioSdPercent) / Math.sqrt(rounds);
  return Math.max(0.5, Math.ceil(t * 2) / 2);
}
