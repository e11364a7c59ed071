import { describe, expect, it } from 'vitest';
import { parseFailIf } from '@bench/core';
import { brokenHistoryLimits, findHistoryChanges, groupSeries, HISTORY_SCHEMA_VERSION, type HistoryEntry } from '@bench/history';
import { sparkline } from '../sparkline.js';
import { renderHistoryCheck, renderHistoryShow } from './render-history.js';

function entry(run: number, rps: number, p99: number, repeat = 1, series = 's1'): HistoryEntry {
  return {
    schemaVersion: HISTORY_SCHEMA_VERSION,
    series,
    key: { scenario: 'hello', target: 'node', concurrency: 10, engine: 'autocannon', options: {} },
    machine: { hostname: 'h', cpuModel: 'cpu', cores: 2, memoryBytes: 2 ** 30 },
    git: { commit: `${String(run).padStart(2, '0')}aaaaaaaaa`, branch: 'main' },
    run: { startedAt: new Date(Date.UTC(2026, 0, run)).toISOString(), command: 'bench run', repeat, toolVersion: '0.1.0' },
    status: 'ok',
    metrics: { rps, mean: p99 / 2, p50: p99 / 2, p90: p99, p99, p999: p99, max: p99, requests: 100, failed: 0, non2xx: 0 },
    addedAt: '2026-02-01T00:00:00.000Z',
  };
}

// eight runs at ~1000 rps, then eight at ~800 (p99 up from 10 to 13 ms), each run measured twice
const entries = Array.from({ length: 16 }, (_, i) => {
  const run = i + 1;
  const rps = (i < 8 ? 1000 : 800) * (1 + ((i * 7) % 5) / 200);
  const p99 = (i < 8 ? 10 : 13) * (1 + ((i * 3) % 5) / 200);
  return [entry(run, rps, p99, 1), entry(run, rps * 1.01, p99, 2)];
}).flat();

describe('a history rendered', () => {
  it('as the check table and the show table, with the drop between the eighth and ninth run', () => {
    const series = groupSeries(entries);
    const found = findHistoryChanges(series, ['rps', 'p99']);
    const check = renderHistoryCheck(series, found, brokenHistoryLimits(found, parseFailIf('rps<-5%')));
    expect(check).toMatch(
      /^\| hello\/node c=10 autocannon \| rps \| 08aaaaa\.\.09aaaaa \| 1,0\d\d \| 8\d\d \| -20\.\d% \| .* \| regression \|$/m,
    );
    expect(check).toContain('**rps<-5% broken**');
    expect(check).not.toContain('Too few runs');
    expect(renderHistoryCheck(groupSeries(entries.slice(0, 8)), [], [])).toContain(
      'Too few runs to find a change yet (a change point needs 3 runs on each side): hello/node c=10 autocannon (4).',
    );
    const show = renderHistoryShow(series, found, 4);
    expect(show).toContain('(last 4 of 16 runs)');
    expect(show).not.toContain('◆');
    expect(renderHistoryShow(series, found, 10)).toMatch(/^\| 9 \| 09aaaaa \| main \| .*◆ rps -20\.\d% \(p [\d.e-]+\); p99 \+30\.\d%/m);
  });

  it('draws a sparkline from the lowest value to the highest', () => {
    expect(sparkline([1, 2, 3, 4, 5, 6, 7, 8], { scale: 'range' })).toBe('▁▂▃▄▅▆▇█');
    expect(sparkline([5, 5, 5], { scale: 'range' })).toBe('▄▄▄');
    expect(sparkline([], { scale: 'range' })).toBe('');
  });
});
