import type { CellResult } from '@bench/core';
import { describe, expect, it } from 'vitest';
import { measuredCauses, movedFromArticle, ratioSpread, showRatio } from './ratio-spread.js';

const cell = (repeat: number, rps: number, more: Partial<CellResult> = {}) =>
  ({ status: 'ok', repeat, rps, requests: rps, durationSeconds: 1, notes: [], ...more }) as unknown as CellResult;

describe('ratioSpread', () => {
  it("pairs rounds and gives the median of the rounds' ratios with its bootstrap interval", () => {
    const row = [cell(1, 40), cell(2, 50), cell(3, 45)];
    const reference = [cell(1, 1000), cell(2, 1000), cell(3, 900)];
    const spread = ratioSpread(row, reference, 'rps')!;
    expect(spread.rounds).toBe(3);
    expect(spread.median).toBeCloseTo(0.05);
    expect(spread.low).toBeCloseTo(0.04);
    expect(spread.high).toBeCloseTo(0.05);
    expect(showRatio(spread)).toBe('0.050 [0.040-0.050]');
  });

  it('gives a bare ratio for one round, and for a row divided by itself', () => {
    expect(showRatio(ratioSpread([cell(1, 40)], [cell(1, 80)], 'rps'))).toBe('0.50');
    const rows = [cell(1, 10), cell(2, 20), cell(3, 30)];
    expect(showRatio(ratioSpread(rows, rows, 'rps'))).toBe('1.00');
  });

  it('skips failed rounds and rounds the other row lacks', () => {
    const spread = ratioSpread([cell(1, 40), cell(2, 0, { status: 'failed' }), cell(3, 30)], [cell(1, 80), cell(2, 80)], 'rps');
    expect(spread).toMatchObject({ rounds: 1, median: 0.5 });
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
