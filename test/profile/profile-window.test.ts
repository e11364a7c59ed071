import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeFoldedStacks, functionCosts, type CellResult } from '@bench/core';
import { renderRunHtml } from '@bench/reporters';
import { builtinScenarios, commandTarget, resolveRunOptions, runBench } from '@bench/runner';
import { launchChromium, openLocalPage } from '../support/browser.js';
import { testTempDir } from '../support/temp-dir.js';

// --profile samples the server over the measured seconds only. The fixture burns CPU in warmupOnlyBurn for its
// first 1.5 s of requests and in steadyWork afterwards: behind a 2.5 s warm-up the profile holds none of the first,
// with no warm-up it holds both. Its worker thread, which never took bench's hook, burns CPU in workerBurn.
const fixtures = fileURLToPath(new URL('../fixtures/servers/', import.meta.url));
const script = path.join(fixtures, 'profile-server.cjs');
const scenarios = builtinScenarios();

async function profiledCell(warmupSeconds: number): Promise<{ cell: CellResult; doc: Awaited<ReturnType<typeof runBench>> }> {
  // the app's folder is the fixtures': its files are named from there
  const target = commandTarget({ name: 'burner', command: process.execPath, args: [script], cwd: fixtures, env: { BURN_MS: '1500' } });
  const options = resolveRunOptions(
    { scenarios: ['hello'] },
    {
      concurrency: [4],
      durationSeconds: 2,
      warmupSeconds,
      warmupMaxSeconds: warmupSeconds,
      engine: 'wire',
      profile: true,
      cpus: { server: '0', client: '1' },
    },
  );
  const doc = await runBench({ ...options, targets: ['burner'] }, { targets: [target], scenarios, reporters: [] });
  const [cell] = doc.results;
  expect(cell?.status, cell?.error).toBe('ok');
  return { cell: cell!, doc };
}

const functionsOf = (cell: CellResult) => functionCosts(decodeFoldedStacks(cell.profile!.stacks));

describe('--profile', () => {
  it('profiles the measured seconds only: nothing the server ran during the warm-up', async () => {
    const { cell, doc } = await profiledCell(2.5);
    expect(cell.profile?.profilers).toEqual(['v8 (1 process)']);
    expect(cell.profile?.notes).toEqual([]);
    const names = functionsOf(cell).map((f) => f.name);
    expect(names.some((n) => n.startsWith('steadyWork profile-server.cjs:'))).toBe(true);
    expect(names.filter((n) => n.includes('warmupOnlyBurn'))).toEqual([]);
    // the worker thread is profiled too, its stacks under a frame naming its script
    const stacks = [...decodeFoldedStacks(cell.profile!.stacks).keys()];
    expect(stacks.filter((stack) => /^\(worker thread profile-server\.cjs\);.*workerBurn profile-server\.cjs:\d+/.test(stack))).not.toEqual(
      [],
    );

    // the HTML report draws it offline, with no error, and its table is the JSON's top functions
    const dir = testTempDir('profile-window');
    mkdirSync(dir, { recursive: true });
    const page = path.join(dir, 'report.html');
    writeFileSync(page, renderRunHtml(doc));
    const browser = await launchChromium();
    try {
      const { page: tab, problems } = await openLocalPage(browser, page);
      const frames = tab.locator('figure[data-flame] svg g');
      await expect.poll(() => frames.count()).toBeGreaterThan(5);
      await tab.locator('figure[data-flame] input[type="search"]').fill('steadyWork');
      const table = await tab.locator('table:has(caption:text("top functions by self time")) tbody tr').allInnerTexts();
      const samples = cell.profile!.samples;
      const expected = functionsOf(cell)
        .slice(0, 15)
        .map((f) => [f.name, `${((100 * f.self) / samples).toFixed(1)}%`, `${((100 * f.total) / samples).toFixed(1)}%`].join('\t'));
      expect(table).toEqual(expected);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('sees the warm-up burn when there is no warm-up (so the test above can fail)', async () => {
    const { cell } = await profiledCell(0);
    expect(functionsOf(cell).some((f) => f.name.startsWith('warmupOnlyBurn profile-server.cjs:'))).toBe(true);
  });
});
