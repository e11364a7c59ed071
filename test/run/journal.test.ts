import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunDocument } from '@bench/core';
import { runCli } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Line {
  readonly type: string;
  readonly cell?: number;
  readonly second?: { t: number; requests: number };
}
const linesOf = (file: string): Line[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.endsWith('}'))
        .map((l) => JSON.parse(l) as Line)
    : [];

const reportJson = async (file: string) => {
  const run = await runCli(['report', file, '-r', 'json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as RunDocument;
};

describe('the run journal', () => {
  it('keeps a run killed with SIGKILL in its second cell: the first cell whole, the second up to where it stopped', async () => {
    const dir = testTempDir('journal-kill');
    const results = path.join(dir, 'results.json');
    const journal = path.join(dir, 'results.journal.jsonl');
    // kill once the second cell has journalled three of its seconds
    const secondsOfCell2 = () => linesOf(journal).filter((l) => l.type === 'second' && l.cell === 2).length;
    // a held rate: the run only has to last, and journal its seconds
    const run = await runCli(
      ['run', 'hello', '-t', 'node', '-c', '5,10', '-d', '5', '--rate', '500', '--warmup', '0', '-r', 'json', '-o', results],
      {
        onSpawn: (child) => {
          void (async () => {
            while (secondsOfCell2() < 3) await sleep(50);
            child.kill('SIGKILL');
          })();
        },
      },
    );
    expect(run.signal).toBe('SIGKILL');
    expect(run.stderr).toContain(`bench: journal ${journal}`);
    // the results file holds the finished cell (rewritten whole after each cell), and no file was left half written
    expect(readdirSync(dir).sort()).toEqual(['results.journal.jsonl', 'results.json']);
    const saved = JSON.parse(readFileSync(results, 'utf8')) as RunDocument;
    expect(saved.complete).toBe(false);
    expect(saved.results.map((r) => r.concurrency)).toEqual([5]);

    const lines = linesOf(journal);
    const doc = await reportJson(journal);
    expect(doc.complete).toBe(false);
    expect(doc.results).toHaveLength(2);
    const [first, cut] = doc.results;
    expect(first?.concurrency).toBe(5);
    expect(first?.interrupted).toBeUndefined();
    expect(first?.durationSeconds).toBeGreaterThan(4.9);
    // the cell it was killed in: every second the journal kept, all its answers counted and timed
    const kept = lines.filter((l) => l.type === 'second' && l.cell === 2);
    const atSecond = Math.max(...kept.map((l) => l.second?.t ?? 0)) + 1;
    expect(cut?.concurrency).toBe(10);
    expect(cut?.interrupted).toEqual({ atSecond });
    expect(cut?.requests).toBe(kept.reduce((sum, l) => sum + (l.second?.requests ?? 0), 0));
    expect(cut?.requests).toBeGreaterThan(0);
    expect(cut?.latency.p50).toBeGreaterThan(0);
    expect(cut?.series?.map((p) => p.t)).toEqual([...Array(atSecond).keys()]);

    const markdown = await runCli(['report', journal]);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toMatch(new RegExp(`\\| node \\| 10 \\(interrupted at ${atSecond} s\\) \\|`));
    expect(markdown.stdout).toContain('The run did not complete: 1 finished cell(s) shown, and node c=10, where it stopped');

    // history takes a partial run only when told, and never the cell cut short
    const history = path.join(dir, 'history.jsonl');
    const addToHistory = (...extra: string[]) =>
      runCli([
        'history',
        'add',
        journal,
        '--history',
        history,
        '--commit',
        'abc',
        '--branch',
        'main',
        '--commit-time',
        '2026-01-01T00:00:00Z',
        ...extra,
      ]);
    const refused = await addToHistory();
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/did not finish; add --partial/);
    const added = await addToHistory('--partial');
    expect(added.stderr).toContain('1 cell appended');

    // a last line cut short by the kill is left out; a damaged line before the end, or another version, is refused
    const text = readFileSync(journal, 'utf8');
    const cutShort = path.join(dir, 'cut.jsonl');
    writeFileSync(cutShort, `${text}{"type":"second","cell":2,"sec`);
    expect((await reportJson(cutShort)).results).toHaveLength(2);
    const damaged = path.join(dir, 'damaged.jsonl');
    const rows = text.split('\n');
    writeFileSync(damaged, [rows[0], '{"type":"cell",', ...rows.slice(1)].join('\n'));
    const readDamaged = await runCli(['report', damaged]);
    expect(readDamaged.code).toBe(2);
    expect(readDamaged.stderr.trim()).toBe(
      `bench: BENCH_ERR_JOURNAL: journal ${damaged}: line 2 is damaged (not JSON); the journal cannot be read past it`,
    );
    const future = path.join(dir, 'future.jsonl');
    writeFileSync(future, text.replace('"version":1', '"version":99'));
    const readFuture = await runCli(['report', future]);
    expect(readFuture.code).toBe(2);
    expect(readFuture.stderr).toMatch(/BENCH_ERR_JOURNAL: .*version 99 of the journal/);
  });

  it('of a finished run reads as the run itself', async () => {
    const dir = testTempDir('journal-done');
    const results = path.join(dir, 'results.json');
    const run = await runCli(['run', 'hello', '-t', 'node', '-c', '5', '-n', '400', '--warmup', '0', '-r', 'json', '-o', results]);
    expect(run.code).toBe(0);
    const fromJournal = await reportJson(path.join(dir, 'results.journal.jsonl'));
    expect(fromJournal).toEqual(JSON.parse(readFileSync(results, 'utf8')));
  });
});
