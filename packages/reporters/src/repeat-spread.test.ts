import { describe, expect, it } from 'vitest';
import type { CellResult } from '@bench/core';
import { spreadLines } from './repeat-spread.js';

const runs = (rps: number[], target = 'node') =>
  rps.map((value, i) => ({ target, concurrency: 10, repeat: i + 1, status: 'ok', rps: value }) as unknown as CellResult);

describe('the spread of a cell over its repeats', () => {
  it('flags a cell whose runs spread more than 5% and names the outlier run', () => {
    const lines = spreadLines(runs([10_000, 10_100, 9_900, 10_050, 5_000]));
    expect(lines[0]).toMatch(/^node c=10: its 5 runs spread \d+\.\d% \(coefficient of variation of rps, above 5%\)/);
    expect(lines[1]).toMatch(/^node c=10: run 5 \(5000 rps\) is an outlier \(modified z-score -\d+\.\d, beyond ±3\.5\)$/);
  });

  it('says nothing of steady repeats, or of a single run', () => {
    expect(spreadLines(runs([10_000, 10_100, 9_950, 10_020]))).toEqual([]);
    expect(spreadLines(runs([10_000]))).toEqual([]);
  });
});
