import { describe, expect, it } from 'vitest';
import { bootstrapChangeInterval, bootstrapMedianInterval } from './bootstrap.js';

describe('bootstrap intervals', () => {
  it('has a bootstrap interval that is reproducible and contains the observed change', () => {
    const a = bootstrapChangeInterval([100, 102, 98, 101], [90, 91, 89, 92]);
    expect(a).toEqual(bootstrapChangeInterval([100, 102, 98, 101], [90, 91, 89, 92]));
    expect(a[0]).toBeLessThanOrEqual(-9.5);
    expect(a[1]).toBeGreaterThanOrEqual(-11);
  });

  it('of a median: reproducible, around the median, and the range of the values up to five of them', () => {
    const values = [100, 104, 96, 101, 99, 103, 97];
    const [low, high] = bootstrapMedianInterval(values);
    expect(bootstrapMedianInterval(values)).toEqual([low, high]);
    expect(low).toBeLessThanOrEqual(100);
    expect(high).toBeGreaterThanOrEqual(100);
    // with five values or fewer, resampled medians never leave the values' range, and reach both ends
    expect(bootstrapMedianInterval([10, 20, 30])).toEqual([10, 30]);
  });
});
