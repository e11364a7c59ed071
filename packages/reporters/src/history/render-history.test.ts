import { describe, expect, it } from 'vitest';
import { parseFailIf } from '@bench/core';
import { brokenHistoryLimits, findHistoryChanges, groupSeries } from '@bench/history';
import { steppedEntries as entries } from '../../../history/test-fixtures/history-entries.js';
import { sparkline } from '../sparkline.js';
import { renderHistoryCheck, renderHistoryShow } from './render-history.js';

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
