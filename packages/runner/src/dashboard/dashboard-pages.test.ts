import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRunOptions } from '../options/resolve.js';
import { newRunDocument } from '../run/run-cells.js';
import { JOURNAL_FORMAT, JOURNAL_VERSION } from '../journal/journal-lines.js';
import { DashboardPages } from './dashboard-pages.js';

describe("the dashboard's pages", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'benchtest-dashboard-pages-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are rendered again only when the journal has grown or the run has ended', async () => {
    const journal = path.join(dir, 'run.journal.jsonl');
    const doc = newRunDocument('bench run hello', resolveRunOptions({ scenarios: ['hello'] }));
    writeFileSync(journal, `${JSON.stringify({ type: 'header', format: JOURNAL_FORMAT, version: JOURNAL_VERSION, document: doc })}\n`);
    const pages = new DashboardPages(journal);
    const first = await pages.current(false);
    expect(await pages.current(false)).toBe(first);
    expect(first.report).toBeUndefined();

    appendFileSync(journal, `${JSON.stringify({ type: 'end', document: { ...doc, complete: true } })}\n`);
    const grown = await pages.current(false);
    expect(grown).not.toBe(first);
    expect(await pages.current(false)).toBe(grown);

    const ended = await pages.current(true);
    expect(ended).not.toBe(grown);
    expect(ended.report).toContain('<h1>bench:');
    expect(JSON.parse(ended.body)).toMatchObject({ finished: true });
  });
});
