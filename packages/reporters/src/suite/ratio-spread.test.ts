import type { CellResult } from '@bench/core';
import { describe, expect, it } from 'vitest';
import { measuredCauses, movedFromArticle, ratioSpread, showRatio, spreadOf } from './ratio-spread.js';

const cell = (repeat: number, rps: number, more: Partial<CellResult> = {}) =>
  ({ status: 'ok', repeat, rps, requests: rps, durationSeconds: 1, notes: [], ...more }) as unknown as CellResult;

describe('ratioSpread', () => {
  it("pairs rounds: the geometric mean of the rounds' ratios, with Student's t interval of their logarithms", () => {
    const row = [cell(1, 40), cell(2, 50), cell(3, 45)];
    const reference = [cell(1, 1000), cell(2, 1000), cell(3, 900)];
    const spread = ratioSpread(row, reference, 'rps')!;
    expect(spread).toMatchObject({ rounds: 3, runs: 1 });
    // ratios 0.04, 0.05, 0.05: logs' mean -3.0701 (0.0464), sd 0.1289, t(2) 4.303: half-width 0.3202 in logs
    expect(spread.center).toBeCloseTo(0.0464, 4);
    expect(spread.low).toBeCloseTo(0.0337, 4);
    expect(spread.high).toBeCloseTo(0.0639, 4);
    expect(showRatio(spread)).toBe('0.046 [0.034-0.064]');
  });

  it('holds the rounds of one run to 95%, where their range held 75%', () => {
    // three rounds that agree within 2% read a range of 2%; t with 2 degrees of freedom widens it to about 8%
    const spread = spreadOf([0.99, 1.0, 1.01])!;
    expect(spread.high / spread.low).toBeGreaterThan(1.04);
    expect(spread.low).toBeLessThan(0.99);
    expect(spread.high).toBeGreaterThan(1.01);
  });

  it('widens to the spread between runs where earlier runs measured the ratio, and not where they did not', () => {
    // this run's rounds agree closely; an earlier run here read about half
    const alone = spreadOf([1.0, 1.02, 0.98])!;
    const withEarlier = spreadOf([1.0, 1.02, 0.98], [[0.5, 0.52, 0.51]])!;
    expect(withEarlier.runs).toBe(2);
    expect(withEarlier.center).toBeCloseTo(alone.center, 10);
    // 1.96 standard deviations of the two runs' geometric means (ln 1.0 and ln 0.51): 0.933 in logs
    expect(withEarlier.low).toBeCloseTo(Math.exp(Math.log(alone.center) - 0.933), 2);
    expect(withEarlier.low).toBeLessThan(0.51);
    expect(showRatio(withEarlier)).toBe('1.00 [0.39-2.54]');
    // earlier runs that did not measure it leave the rounds' interval as it was
    expect(spreadOf([1.0, 1.02, 0.98], [[]])).toEqual(alone);
  });

  it('gives a bare ratio for one round of one run, and for a row divided by itself', () => {
    expect(showRatio(ratioSpread([cell(1, 40)], [cell(1, 80)], 'rps'))).toBe('0.50');
    const rows = [cell(1, 10), cell(2, 20), cell(3, 30)];
    expect(showRatio(ratioSpread(rows, rows, 'rps'))).toBe('1.00');
  });

  it('skips failed rounds and rounds the other row lacks; a row that answered nothing reads 0', () => {
    const spread = ratioSpread([cell(1, 40), cell(2, 0, { status: 'failed' }), cell(3, 30)], [cell(1, 80), cell(2, 80)], 'rps');
    expect(spread).toMatchObject({ rounds: 1, center: 0.5 });
    expect(showRatio(ratioSpread([cell(1, 0), cell(2, 0)], [cell(1, 80), cell(2, 80)], 'rps'))).toBe('0.000');
  });
});

describe('a ratio far from the article', () => {
  it('is one that moved more than 2x either way', () => {
    expect(movedFromArticle(1.01, 0.04)).toBe(true);
    expect(movedFromArticle(0.13, 0.3)).toBe(true);
    expect(movedFromArticle(0.13, 0.2)).toBe(false);
    expect(movedFromArticle(undefined, 0.2)).toBe(false);
  });

  it('names the stalls, the generator at its ceiling, the pool sizes and the CPU per request', () => {
    const stalled = 'the stack waited rather than worked: 1 request took 1,002 ms (the median 1.2 ms), server CPU 9%';
    const causes = measuredCauses([
      {
        label: 'php-fcgid',
        repeats: [
          cell(1, 500, { notes: [stalled], resources: { server: { cpuPercent: 9, rssBytes: 1, processes: 4 } } }),
          cell(2, 900, { resources: { server: { cpuPercent: 10, rssBytes: 1, processes: 5 } } }),
        ],
      },
      {
        label: 'php-mod',
        repeats: [
          cell(1, 10000, {
            resources: { server: { cpuPercent: 150, rssBytes: 1, processes: 11 }, client: { cpuPercent: 97, rssBytes: 1, processes: 1 } },
          }),
        ],
      },
    ]);
    expect(causes).toEqual([
      `php-fcgid: ${stalled}`,
      'php-mod: the generator at its ceiling (97% of one core): it, not the stack, may bound the figure',
      'processes of the stack at most: php-fcgid 5, php-mod 11',
      'server CPU per request: php-fcgid 0.146 ms, php-mod 0.15 ms',
    ]);
  });
});
