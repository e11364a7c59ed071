import { describe, expect, it } from 'vitest';
import { arrivalSchedule } from './arrival-schedule.js';

const times = (rate: number, seconds: number, count: number) =>
  Array.from({ length: count }, (_, index) => {
    const s = arrivalSchedule(rate / count, seconds, { index, count });
    return Array.from({ length: s.due }, (_, j) => s.atNs(j));
  });

describe('arrivalSchedule', () => {
  it('spaces one thread’s requests 1/R apart, R·seconds of them', () => {
    const [one] = times(1000, 2, 1);
    expect(one).toHaveLength(2000);
    expect(one!.slice(0, 3)).toEqual([0n, 1_000_000n, 2_000_000n]);
  });

  it('splits the run over threads so that together they send the same requests at the same instants', () => {
    for (const [rate, seconds, count] of [
      [1000, 2, 2],
      [333, 3, 3],
      [7, 1, 2],
      [1, 1, 2],
      [12_345, 1.5, 4],
    ] as const) {
      const single = times(rate, seconds, 1)[0]!;
      const split = times(rate, seconds, count);
      const union = split.flat().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(union).toEqual(single);
      // and the threads interleave: thread i holds the run's requests i, i+n, ...
      split.forEach((mine, index) => mine.forEach((at, j) => expect(at).toBe(single[j * count + index])));
    }
  });
});
