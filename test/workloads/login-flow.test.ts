import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { repoRoot, runCli } from '../support/cli.js';
import { launchChromium, openLocalPage } from '../support/browser.js';
import { recordOnExit } from '../support/record-on-exit.js';
import { testTempDir } from '../support/temp-dir.js';

// The example app: POST /api/login issues a new token per login, GET /api/items/:id refuses any request without one,
// and /api/stats counts what each route answered. Its workload config (examples/app/bench.workload.config.ts) is the
// one a user runs; here it runs against a copy of the app that writes its counts when bench stops it.
const app = path.join(repoRoot, 'examples', 'app', 'server.mjs');
const exampleConfig = readFileSync(path.join(repoRoot, 'examples', 'app', 'bench.workload.config.ts'), 'utf8');

function workloadConfig(dir: string, wrapper: string): string {
  const file = path.join(dir, 'bench.config.ts');
  writeFileSync(
    file,
    exampleConfig
      .replace("import { defineConfig } from '@bench/runner';", '')
      .replace('defineConfig(', '(')
      .replace("args: ['server.mjs']", `args: [${JSON.stringify(wrapper)}]`)
      .replace("command: 'node'", `command: ${JSON.stringify(process.execPath)}`)
      .replace(
        "reporters: ['markdown', ['json', { out: 'workload-results.json' }]]",
        "reporters: ['markdown', ['json', { out: 'results.json' }], ['html', { out: 'report.html' }]]",
      )
      .replace("'shop/app': { failed: '==0' },", "'shop/app': { failed: '==0' }, 'create-item/app': { p99: '<5000', failed: '==0' },"),
  );
  return file;
}

describe('a flow behind a login, with a mix', () => {
  it('logs in once per connection, then sends 80/20 as the server counts them, with numbers per step in every report', async () => {
    const dir = testTempDir('login-flow');
    const { wrapper, received } = recordOnExit(dir, app, '/api/stats');
    const config = workloadConfig(dir, wrapper);
    const run = await runCli(['run', '--config', config, '-c', '6', '-d', '5', '-w', '0'], { cwd: dir, timeoutMs: 90_000 });
    expect(run.code, run.stderr).toBe(0);

    const counts = JSON.parse(readFileSync(received, 'utf8')) as Record<string, number>;
    // verification logs in once, then each of the 6 connections once; nothing was refused for want of a token
    expect(counts.login).toBe(7);
    expect(counts.refused).toBe(0);
    const readShare = (counts.byId! / (counts.byId! + counts.create!)) * 100;
    expect(Math.abs(readShare - 80)).toBeLessThan(1);

    const doc = runDocumentSchema.parse(JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')));
    const cell = doc.results[0]!;
    expect(cell).toMatchObject({ status: 'ok', failed: 0, non2xx: 0 });
    expect(cell.workload).toBe('login once per connection, then get-item 80% / create-item 20%');
    const steps = Object.fromEntries(cell.steps!.map((s) => [s.name, s]));
    expect(Object.keys(steps)).toEqual(['login', 'get-item', 'create-item']);
    expect(steps.login!.requests).toBe(6);
    // bench's counts per step are the server's, less the verification's one request each and the at most 6 (one a
    // connection) still in flight when the 5 s ended, which the server answered and bench no longer counted
    for (const [step, served] of [
      ['get-item', counts.byId! - 1],
      ['create-item', counts.create! - 1],
    ] as const) {
      expect(steps[step]!.requests).toBeLessThanOrEqual(served);
      expect(steps[step]!.requests).toBeGreaterThanOrEqual(served - 6);
    }
    expect(cell.requests).toBe(cell.steps!.reduce((sum, s) => sum + s.requests, 0));
    expect(steps['get-item']!.histogram).toBeDefined();
    expect(steps['get-item']!.series!.filter((p) => p.phase === 'measure').length).toBeGreaterThanOrEqual(5);

    // markdown: a row per step under the cell; thresholds select a step by its name
    expect(run.stdout).toMatch(/^\| ↳ get-item \(80(\.0)?%\) \| {2}\| [\d,.]+ \|/m);
    expect(run.stdout).toMatch(/^\| ↳ create-item \(20(\.0)?%\) \|/m);
    expect(doc.thresholds!.filter((t) => t.scenario === 'create-item')).toHaveLength(2);
    expect(doc.thresholds!.every((t) => t.ok)).toBe(true);

    // compare: each step is compared as a cell of its own
    const compared = await runCli(['compare', path.join(dir, 'results.json'), path.join(dir, 'results.json')], { cwd: dir });
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stdout).toMatch(/^\| shop › create-item \| app \| 6 \| rps \|/m);
    expect(compared.stdout).toContain('over 1 cell(s)');

    // history: each step is a series of its own beside its cell's
    const history = path.join(dir, 'history.jsonl');
    const added = await runCli(
      [
        'history',
        'add',
        path.join(dir, 'results.json'),
        '--history',
        history,
        '--config',
        config,
        '--commit',
        'a'.repeat(40),
        '--branch',
        'main',
        '--commit-time',
        '2026-11-26T00:00:00Z',
      ],
      { cwd: dir },
    );
    expect(added.code, added.stderr).toBe(0);
    const keys = readFileSync(history, 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { key: { scenario: string } }).key.scenario);
    expect(keys).toEqual(['shop', 'shop › login', 'shop › get-item', 'shop › create-item']);

    // the HTML report: a chart of the steps per second, with their table, and nothing broken
    const browser = await launchChromium();
    try {
      const { page, problems } = await openLocalPage(browser, path.join(dir, 'report.html'));
      const captions = await page.locator('figcaption').allTextContents();
      expect(captions.some((c) => c.includes('rps per second, step by step'))).toBe(true);
      expect(await page.locator('figure.chart canvas, figure.chart svg').count()).toBeGreaterThan(0);
      await page.screenshot({ path: path.join(dir, 'report.png'), fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('runs the same flow in the open loop: an arrival is one pass of the flow on a connection that logged in once', async () => {
    const dir = testTempDir('login-flow-open');
    const { wrapper, received } = recordOnExit(dir, app, '/api/stats');
    const config = workloadConfig(dir, wrapper);
    const run = await runCli(['run', '--config', config, '-c', '6', '-d', '4', '-w', '0', '--rate', '1000'], {
      cwd: dir,
      timeoutMs: 90_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const counts = JSON.parse(readFileSync(received, 'utf8')) as Record<string, number>;
    const cell = runDocumentSchema.parse(JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'))).results[0]!;
    expect(cell).toMatchObject({ status: 'ok', failed: 0, non2xx: 0, rate: { target: 1000 } });
    const steps = Object.fromEntries(cell.steps!.map((s) => [s.name, s.requests]));
    // one login per connection the loop opened (at most -c), each then reused by later arrivals
    expect(steps.login).toBeGreaterThanOrEqual(1);
    expect(steps.login).toBeLessThanOrEqual(6);
    expect(counts.login).toBe(steps.login! + 1);
    expect(counts.refused).toBe(0);
    // an open loop's requests are all answered by the end of its period: the server's counts, less verification's
    expect(steps['get-item']).toBe(counts.byId! - 1);
    expect(steps['create-item']).toBe(counts.create! - 1);
    expect(Math.abs((steps['get-item']! / (steps['get-item']! + steps['create-item']!)) * 100 - 80)).toBeLessThan(1);
  });
});
