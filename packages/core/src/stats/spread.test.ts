import { describe, expect, it } from 'vitest';
import { coefficientOfVariation, mean, modifiedZScores, standardDeviation } from './spread.js';

describe('spread', () => {
  it('gives the mean and the sample standard deviation (n - 1)', () => {
    expect(mean([2, 4, 4, 4, 5, 5, 7, 9])).toBe(5);
    expect(standardDeviation([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(Math.sqrt(32 / 7), 12);
    expect(standardDeviation([5])).toBe(0);
  });

  it('gives the coefficient of variation in percent, 0 when it cannot', () => {
    expect(coefficientOfVariation([90, 110])).toBeCloseTo((Math.sqrt(200) / 100) * 100, 10);
    expect(coefficientOfVariation([100])).toBe(0);
    expect(coefficientOfVariation([-1, 1])).toBe(0);
    expect(coefficientOfVariation([100, 100, 100])).toBe(0);
    expect(coefficientOfVariation([90, 100, 110])).toBeCloseTo(10, 5);
  });

  it('scores an outlier far beyond 3.5 by its modified z-score, and none when the MAD is 0', () => {
    const z = modifiedZScores([100, 101, 99, 100, 102, 98, 200]);
    expect(z?.at(-1)).toBeGreaterThan(3.5);
    expect(Math.abs(z?.[0] ?? 1)).toBeLessThan(1);
    expect(modifiedZScores([5, 5, 5, 9])).toBeUndefined();
    expect(modifiedZScores([100, 100, 100])).toBeUndefined();
    expect(modifiedZScores([98, 100, 102, 150])![3]).toBeGreaterThan(3.5);
  });
});
