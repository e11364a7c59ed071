import { describe, expect, it } from 'vitest';
import { wrkPercentiles } from './wrk-engine.js';

const latency = (percentiles: number[], counts: number[]) => ({ min: 0, max: 0, mean: 0, stdev: 0, percentiles, counts });

describe('wrkPercentiles', () => {
  it("keeps wrk's own percentiles when they are in order and none is 0", () => {
    expect(wrkPercentiles(latency([1000, 2000, 2000, 3000, 4000, 5000, 6000, 7000, 8000], [1000, 10]))).toEqual([
      1, 2, 2, 3, 4, 5, 6, 7, 8,
    ]);
  });

  it('reads them from the distribution where wrk lost them: all 0 under a slow pipeline', () => {
    const read = wrkPercentiles(latency([0, 0, 0, 0, 0, 0, 0, 0, 0], [700_000, 6, 900_000, 4]));
    expect(read[0]).toBeGreaterThan(690);
    expect(read[7]).toBeGreaterThan(890);
  });

  it('and where its upper ones read 0', () => {
    const read = wrkPercentiles(latency([1000, 2000, 2000, 3000, 0, 0, 0, 0, 0], [1000, 90, 50_000, 10]));
    expect(read[7]).toBeGreaterThan(49);
  });
});
