import { describe, expect, it } from 'vitest';
import { median } from './median.js';

describe('median', () => {
  it('is the middle value, or the mean of the middle two, whatever the order', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5])).toBe(5);
  });

  it('is 0 for no values, and leaves its input as it was', () => {
    expect(median([])).toBe(0);
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});
