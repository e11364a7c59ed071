import { describe, expect, it } from 'vitest';
import { sparkline } from './sparkline.js';

describe('sparkline', () => {
  it('scales from zero to the largest value', () => {
    expect(sparkline([0, 50, 100])).toBe('▁▅█');
  });
  it('shows a collapse as the lowest bar', () => {
    expect(sparkline([100, 100, 0, 0, 100])).toBe('██▁▁█');
  });
  it('averages long series into the width', () => {
    expect(
      sparkline(
        Array.from({ length: 120 }, (_, i) => (i < 60 ? 10 : 20)),
        { width: 60 },
      ),
    ).toHaveLength(60);
  });
  it('is empty for no values and flat for all zero', () => {
    expect(sparkline([])).toBe('');
    expect(sparkline([0, 0])).toBe('▁▁');
  });
});
