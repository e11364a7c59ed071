import { describe, expect, it } from 'vitest';
import { linearFit } from './linear-fit.js';

describe('linearFit', () => {
  it('finds the slope and a perfect fit of a line, and no fit in a flat zigzag', () => {
    expect(linearFit([0, 1, 2, 3], [1, 3, 5, 7])).toMatchObject({ slope: 2, intercept: 1, r2: 1 });
    expect(linearFit([0, 1, 2, 3, 4, 5], [5, 6, 5, 6, 5, 6]).r2).toBeLessThan(0.2);
  });
});
