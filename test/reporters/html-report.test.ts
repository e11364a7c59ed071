import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { RunDocument } from '@bench/core';
import { launchChromium } from '../support/browser.js';
import { repoRoot, runCli } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// Where the test leaves its screenshots for people to look at (git ignores .tmp/).
const screenshots = path.join(repoRoot, '.tmp', 'screenshots');

interface PageCheck {
  readonly consoleErrors: string[];
  readonly networkRequests: string[];
}

/** Opens a report from file:// and records every console error and every request that is not the file itself. */
async function openReport(browser: Browser, file: string): Promise<{ page: Page; check: PageCheck }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const check: PageCheck = { consoleErrors: [], networkRequests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') check.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => check.consoleErrors.push(error.message));
  const url = pathToFileURL(file).href;
  page.on('request', (request) => {
    if (request.url() !== url) check.networkRequests.push(request.url());
  });
  await page.goto(url);
  await page.waitForFunction(() => document.querySelectorAll('figure.chart [data-chart]:not([data-drawn])').length === 0, undefined, {
    timeout: 10_000,
  });
  return { page, check };
}

/** How many pixels of each chart's canvas were drawn (not transparent). */
function drawnPixels(page: Page): Promise<number[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('figure.chart canvas')].map((canvas) => {
      const c = canvas as HTMLCanvasElement;
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let drawn = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) drawn++;
      return drawn;
    }),
  );
}

describe('the HTML report in a real browser (Chromium, offline, from file://)', () => {
  let browser: Browser;
  const dir = testTempDir('html');
  let doc: RunDocument;
  let report: string;

  beforeAll(async () => {
    report = path.join(dir, 'report.html');
    const results = path.join(dir, 'results.json');
    // a fixed one-second warm-up (not until steady, up to 10 s): its second is still there for the charts to shade;
    // held at a rate (wire's open loop): the charts need seconds, not the CPU a closed loop would take
    const run = await runCli(
      [
        ...['run', 'hello', '-t', 'node', '-c', '10', '-d', '2', '--rate', '400', '--repeat', '2', '--warmup', '1', '--warmup-max', '1'],
        ...['-r', 'html', '-o', report, '-r', 'json', '-o', results],
      ],
      { timeoutMs: 120_000, cwd: dir },
    );
    expect(run.code, run.stderr).toBe(0);
    doc = JSON.parse(readFileSync(results, 'utf8')) as RunDocument;
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('loads with no console error and no network request, and every chart draws', async () => {
    const { page, check } = await openReport(browser, report);
    expect(check.consoleErrors).toEqual([]);
    expect(check.networkRequests).toEqual([]);
    const pixels = await drawnPixels(page);
    // per scenario: rps bars and the latency distribution; per cell (2 runs): 3 charts over time
    expect(pixels.length).toBeGreaterThanOrEqual(2 + 2 * 3);
    for (const drawn of pixels) expect(drawn).toBeGreaterThan(1000);
    mkdirSync(screenshots, { recursive: true });
    const shot = path.join(screenshots, 'html-report.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
  });

  it("shows in its summary table the JSON's numbers", async () => {
    const { page } = await openReport(browser, report);
    const rows = await page.$$eval('table.summary tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
    expect(rows).toHaveLength(1);
    const [target, c, rps, p50, p99, failed] = rows[0]!;
    const runs = doc.results.filter((r) => r.status === 'ok');
    const median = (values: number[]) => {
      const s = [...values].sort((a, b) => a - b);
      return (s[0]! + s[1]!) / 2;
    };
    expect(target).toBe('node');
    expect(Number(c)).toBe(10);
    // the table shows rps to 2 decimals and ms to 3 (the JSON's own precision; a median of two runs can have one more)
    const shown = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
    expect(Number(rps)).toBe(shown(median(runs.map((r) => r.rps)), 2));
    expect(Number(p50)).toBe(shown(median(runs.map((r) => r.latency.p50)), 3));
    expect(Number(p99)).toBe(shown(median(runs.map((r) => r.latency.p99)), 3));
    expect(Number(failed)).toBe(runs.reduce((s, r) => s + r.failed, 0));
  });

  it('renders a schema-1 results file through bench report, saying what it lacks', async () => {
    const old = { ...doc, schemaVersion: 1, results: doc.results.map(({ series: _s, histogram: _h, ...cell }) => cell) };
    const oldFile = path.join(dir, 'schema-1.json');
    writeFileSync(oldFile, JSON.stringify(old));
    const out = path.join(dir, 'schema-1.html');
    const rendered = await runCli(['report', oldFile, '-r', 'html', '-o', out], { cwd: dir });
    expect(rendered.code, rendered.stderr).toBe(0);
    expect(existsSync(out)).toBe(true);
    const { page, check } = await openReport(browser, out);
    expect(check.consoleErrors).toEqual([]);
    expect(await page.textContent('body')).toContain('results schema 1: it has no per-second series and no latency histograms');
    for (const drawn of await drawnPixels(page)) expect(drawn).toBeGreaterThan(1000);
  });

  it('draws a comparison of two targets of one run (bench compare --format html)', async () => {
    const results = path.join(dir, 'two.json');
    const run = await runCli(
      ['run', 'hello', '-t', 'node,node-pool', '-c', '5', '-n', '500', '--warmup', '0', '-r', 'json', '-o', results],
      {
        timeoutMs: 120_000,
        cwd: dir,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const out = path.join(dir, 'compare.html');
    const compared = await runCli(
      ['compare', results, '--base', 'node', '--head', 'node-pool', '--format', 'html', '-o', out, '--allow-undecided'],
      {
        cwd: dir,
      },
    );
    expect(compared.code, compared.stderr).toBe(0);
    const { page, check } = await openReport(browser, out);
    expect(check.consoleErrors).toEqual([]);
    expect(check.networkRequests).toEqual([]);
    expect(await page.$$eval('table.summary tbody tr', (trs) => trs.length)).toBeGreaterThan(0);
    const pixels = await drawnPixels(page);
    expect(pixels.length).toBeGreaterThanOrEqual(2);
    for (const drawn of pixels) expect(drawn).toBeGreaterThan(1000);
    await page.screenshot({ path: path.join(screenshots, 'html-compare.png'), fullPage: true });
  });
});
