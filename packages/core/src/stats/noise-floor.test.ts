import { describe, expect, it } from 'vitest';
import { roundsToDetect, supportedThreshold } from './noise-floor.js';

describe('the rounds and the threshold a spread supports', () => {
  it('needs more rounds for smaller changes and noisier machines, never fewer than the 5 a paired verdict needs', () => {
    // 3% per run: ratios of two runs spread about sqrt(2) x 3% = 4.24%
    expect(roundsToDetect(4.24, 10)).toBe(5);
    expect(roundsToDetect(4.24, 5)).toBe(9);
    expect(roundsToDetect(4.24, 2)).toBe(56);
    expect(roundsToDetect(8.5, 5)).toBeGreaterThan(roundsToDetect(4.24, 5));
    expect(supportedThreshold(4.24)).toBe(5);
    expect(supportedThreshold(0)).toBe(0.5);
  });
});
