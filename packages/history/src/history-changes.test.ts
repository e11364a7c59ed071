import { describe, expect, it } from 'vitest';
import { parseFailIf } from '@bench/core';
import { brokenHistoryLimits, findHistoryChanges } from './history-changes.js';
import { entry, steppedEntries as entries } from '../test-fixtures/history-entries.js';
import { groupSeries } from './history-series.js';

describe('history series and their change points', () => {
  it('one point per run, the median of its repeats, oldest first', () => {
    const [series] = groupSeries([...entries].reverse());
    expect(series?.points).toHaveLength(16);
    expect(series?.points[0]?.repeats).toBe(2);
    expect(series?.points[0]?.metrics.rps).toBeCloseTo(1005, 5);
    expect(series?.points.map((p) => p.git.commit?.slice(0, 2))).toEqual(
      Array.from({ length: 16 }, (_, i) => String(i + 1).padStart(2, '0')),
    );
  });

  it('keeps different machines apart, skips failed cells and counts a run added twice once', () => {
    const other = { ...entry(1, 5, 5, 1, 's2'), machine: { hostname: 'other', cpuModel: 'cpu', cores: 8, memoryBytes: 1 } };
    const failed = { ...entry(2, 0, 0), status: 'failed' as const };
    const series = groupSeries([...entries, other, failed, ...entries.slice(0, 4)]);
    expect(series.map((s) => [s.label.replace(/\[[0-9a-f]{12}\]$/, '[id]'), s.points.length]).sort()).toEqual([
      ['hello/node c=10 autocannon [id]', 1],
      ['hello/node c=10 autocannon [id]', 16],
    ]);
    expect(series.find((s) => s.points.length === 16)!.points.map((p) => p.repeats)).toEqual(Array(16).fill(2));
  });

  it('keeps one series on one class of machine: a CI runner with a new hostname and a few MB more memory each job', () => {
    const runner = (run: number, hostname: string, memoryBytes: number) => ({
      ...entry(run, 1000, 10),
      machine: { hostname, cpuModel: 'cpu', cores: 2, memoryBytes },
    });
    const series = groupSeries([
      runner(1, 'runner-a1b2', 2 ** 30),
      runner(2, 'runner-c3d4', 2 ** 30 + 3 * 2 ** 20),
      runner(3, 'fv-az99', 2 ** 30 - 2 ** 20),
    ]);
    expect(series.map((s) => [s.label, s.points.length])).toEqual([['hello/node c=10 autocannon', 3]]);
  });

  it('finds the drop between the eighth and ninth run as a regression of rps and p99, and the limit it breaks', () => {
    const series = groupSeries(entries);
    const found = findHistoryChanges(series, ['rps', 'p99']);
    const rps = found.find((f) => f.metric === 'rps')!.changes;
    expect(rps.map((c) => [c.index, c.regression, c.before.git.commit?.slice(0, 2), c.after.git.commit?.slice(0, 2)])).toEqual([
      [8, true, '08', '09'],
    ]);
    expect(rps[0]!.changePercent).toBeCloseTo(-20, 0);
    expect(found.find((f) => f.metric === 'p99')!.changes[0]!.changePercent).toBeCloseTo(30, 0);
    expect(brokenHistoryLimits(found, parseFailIf('rps<-5%')).map((b) => b.change.index)).toEqual([8]);
    expect(brokenHistoryLimits(found, parseFailIf('rps<-25%'))).toEqual([]);
    expect(brokenHistoryLimits(found, parseFailIf('p99>+10%'))).toHaveLength(1);
  });

  it('searches only the newest runs of a long series, and places changes in the whole series', () => {
    const found = findHistoryChanges(groupSeries(entries), ['rps'], { window: 12 });
    expect(found[0]!.changes.map((c) => [c.index, c.after.git.commit?.slice(0, 2)])).toEqual([[8, '09']]);
    expect(findHistoryChanges(groupSeries(entries), ['rps'], { window: 6 })[0]!.changes).toEqual([]);
  });

  it('an improvement as the newest change point does not fail the check', () => {
    const back = [...entries, ...Array.from({ length: 8 }, (_, i) => entry(17 + i, 1000 * (1 + (i % 3) / 100), 10))];
    const found = findHistoryChanges(groupSeries(back), ['rps']);
    expect(found[0]!.changes.map((c) => c.regression)).toEqual([true, false]);
    expect(brokenHistoryLimits(found, parseFailIf('rps<-5%'))).toEqual([]);
  });
});
