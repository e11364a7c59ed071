import { describe, expect, it } from 'vitest';
import { encodeFoldedStacks } from '@bench/core';
import { findHistoryChanges, groupSeries, type HistoryEntry } from '@bench/history';
import { steppedEntries } from '../../../history/test-fixtures/history-entries.js';
import { renderHistoryPage } from './history-page.js';

// The stepped history (rps down 20% from the ninth run) with profiles kept: from the ninth run `parse` takes three
// times the samples per request.
const withProfiles = steppedEntries.map((entry, i): HistoryEntry => {
  const slow = i >= 16;
  const stacks = new Map([
    ['main;handle;parse', slow ? 30 : 10],
    ['main;handle;send', 20],
  ]);
  return { ...entry, profile: { hz: 99, samples: slow ? 50 : 30, stacks: encodeFoldedStacks(stacks) } };
});

describe('the history page with profiles', () => {
  it('links each change point to base against head and names the function that moved', () => {
    const series = groupSeries(withProfiles);
    const found = findHistoryChanges(series, ['rps']);
    expect(found[0]?.changes).toHaveLength(1);
    const page = renderHistoryPage({ file: 'h.jsonl', entries: withProfiles, damaged: [] }, series, found);
    expect(page).toContain('<a href="#change-1">flame graphs</a>');
    expect(page).toMatch(/<section id="change-1"><h3>hello\/node c=10 autocannon: rps -20\.\d% between 08aaaaa\.\.09aaaaa<\/h3>/);
    expect(page).toMatch(/<strong>Most of it in `parse` \(\+200\.0% of CPU per request/);
    expect(page.match(/<figure class="flame" data-flame>/g)).toHaveLength(3);
  });

  it('draws one section where rps and p99 changed between the same runs, both rows linking to it', () => {
    const series = groupSeries(withProfiles);
    const page = renderHistoryPage(
      { file: 'h.jsonl', entries: withProfiles, damaged: [] },
      series,
      findHistoryChanges(series, ['rps', 'p99']),
    );
    expect(page.match(/<a href="#change-1">flame graphs<\/a>/g)).toHaveLength(2);
    expect(page).toMatch(
      /<section id="change-1"><h3>hello\/node c=10 autocannon: rps -20\.\d%, p99 \+30\.\d% between 08aaaaa\.\.09aaaaa<\/h3>/,
    );
    expect(page).not.toContain('id="change-2"');
  });

  it('has no flame graphs where the runs kept no profile', () => {
    const series = groupSeries(steppedEntries);
    const page = renderHistoryPage({ file: 'h.jsonl', entries: steppedEntries, damaged: [] }, series, findHistoryChanges(series, ['rps']));
    expect(page).not.toContain('data-flame');
    expect(page).toMatch(/<td>regression<\/td><td>-<\/td>/);
  });
});
