import { describe, expect, it } from 'vitest';
import { mannWhitneyP } from './rank-test.js';

describe('mannWhitneyP', () => {
  it('is small for two samples wholly apart and large for the same sample', () => {
    // exact: 2 of the 252 ways to split ten values five and five are this far apart
    expect(mannWhitneyP([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])).toBeCloseTo(2 / 252, 10);
    expect(mannWhitneyP([1, 3, 5, 7, 9], [2, 4, 6, 8, 10])).toBeGreaterThan(0.5);
    expect(mannWhitneyP([1, 2, 3, 4, 5], [1, 2, 3, 4, 5])).toBeCloseTo(1, 6);
    expect(mannWhitneyP([3, 3, 3], [3, 3, 3])).toBe(1);
    // exact with ties too: a tie inside one sample does not weaken a complete separation
    expect(mannWhitneyP([556, 589, 454, 663, 638], [247, 253, 386, 253, 245])).toBeCloseTo(2 / 252, 10);
    // and the normal approximation beyond 20 a side agrees with the exact test's order of magnitude
    const low = Array.from({ length: 30 }, (_, i) => i);
    expect(
      mannWhitneyP(
        low,
        low.map((x) => x + 100),
      ),
    ).toBeLessThan(1e-9);
  });
});
