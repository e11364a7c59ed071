import type { CellResult } from '@bench/core';
import { describe, expect, it } from 'vitest';
import { generatorSummary } from './generator-summary.js';

const cell = (status: 'ok' | 'failed', clientCpu?: number, loopP99?: number) =>
  ({
    status,
    ...(clientCpu !== undefined ? { resources: { client: { cpuPercent: clientCpu, rssBytes: 0, processes: 1 } } } : {}),
    ...(loopP99 !== undefined ? { eventLoopDelay: { mean: loopP99 / 2, p99: loopP99, max: loopP99 } } : {}),
  }) as unknown as CellResult;

describe('the load generator under a suite table', () => {
  it('says nothing when the generator had room', () => {
    expect(generatorSummary({ results: [cell('ok', 40, 5), cell('ok', 89.9, 49)] })).toEqual([]);
  });

  it('counts the measured cells where the generator saturated a core or its event loop lagged', () => {
    const [, text] = generatorSummary({
      results: [cell('ok', 100.4, 952.6), cell('ok', 90, 2770.3), cell('ok', 60, 10), cell('failed', 100, 5000)],
    });
    expect(text).toBe(
      "Load generator: used 90% or more of one core in 2 of 3 cells (up to 100%), and its event loop lagged (p99 50 ms or more, up to 2,770 ms) in 2 of 3; there the figures measure the client as well as the servers (each cell's note is in the JSON).",
    );
  });

  it('says "all" when every cell was held back, and reads external engines without an event loop', () => {
    const [, text] = generatorSummary({ results: [cell('ok', 95), cell('ok', 120)] });
    expect(text).toMatch(/^Load generator: used 90% or more of one core in all 2 cells \(up to 120%\); there/);
  });
});
