import { describe, expect, it } from 'vitest';
import { isBenchError, parseFailIf, type CellResult, type RunDocument } from '@bench/core';
import { compare } from './compare.js';

function run(rpsByRepeat: number[], p99 = 5): RunDocument {
  return {
    startedAt: 'now',
    command: 'bench run',
    machine: { cpuModel: 'cpu', cpus: 2 },
    results: rpsByRepeat.map((rps, i) => ({
      scenario: 'hello',
      target: 'node',
      concurrency: 10,
      repeat: i + 1,
      status: 'ok',
      rps,
      latency: { mean: 1, p50: 1, p90: 2, p99, p999: 9, max: 10 },
      notes: [],
    })) as unknown as CellResult[],
  } as unknown as RunDocument;
}

describe('bench compare', () => {
  it('calls a large, consistent drop a regression and --fail-if breaks', () => {
    const c = compare(run([10_000, 10_200, 9_900, 10_100, 9_950]), run([5_000, 5_100, 4_950, 5_050, 4_980]), { failIf: 'rps<-5%' });
    const rps = c.cells[0]?.metrics.find((m) => m.metric === 'rps');
    expect(rps?.verdict).toBe('regressed');
    expect(rps?.changePercent).toBeCloseTo(-50, 0);
    expect(c.broken).toHaveLength(1);
  });

  it('calls overlapping samples within noise, and breaks no limit', () => {
    const c = compare(run([10_000, 10_400, 9_700, 10_100, 9_900]), run([10_100, 9_800, 10_300, 9_950, 10_050]), { failIf: 'rps<-5%' });
    expect(c.cells[0]?.metrics.find((m) => m.metric === 'rps')?.verdict).toBe('within noise');
    expect(c.broken).toEqual([]);
  });

  it('reads latency the other way round: higher p99 is a regression', () => {
    const c = compare(run([100, 100, 100], 5), run([100, 100, 100], 9), { failIf: 'p99>+10%' });
    expect(c.cells[0]?.metrics.find((m) => m.metric === 'p99')?.verdict).toBe('regressed');
    expect(c.broken[0]?.limit).toBe('p99>+10%');
  });

  it('gives no verdict under 3 repeats a side, and says why', () => {
    const c = compare(run([10_000, 10_100]), run([5_000, 5_000]), { failIf: 'rps<-5%' });
    const rps = c.cells[0]?.metrics.find((m) => m.metric === 'rps');
    expect(rps?.verdict).toBe('no verdict');
    expect(rps?.reason).toMatch(/at least 3 successful repeats a side \(has 2 and 2\)/);
    expect(c.broken).toEqual([]);
  });

  it('refuses a limit it cannot read', () => {
    expect(() => parseFailIf('rps<5')).toThrow(/must look like METRIC<-N%/);
    try {
      parseFailIf('speed>+1%');
    } catch (error) {
      expect(isBenchError(error) && error.exitCode).toBe(2);
    }
  });
});
