import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/browser.js';
import { repoRoot, runCli, waitForText } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// Where the test leaves its screenshots for people to look at (git ignores .tmp/).
const screenshots = path.join(repoRoot, '.tmp', 'screenshots');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

describe('the live dashboard (--dashboard) in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    mkdirSync(screenshots, { recursive: true });
  });
  afterAll(async () => browser?.close());

  it('draws the run as it goes, offers the final report, and stops listening when the run ends', async () => {
    const dir = testTempDir('dashboard');
    const consoleErrors: string[] = [];
    const offMachine: string[] = [];
    let url = '';
    const pointsSeen: number[] = [];
    let finalStatus = '';
    const run = await runCli(
      [...'run hello -t node -c 5 -d 8 --warmup 0 --dashboard --dashboard-port 0 -r json -o'.split(' '), path.join(dir, 'results.json')],
      {
        onSpawn: (_child, output) => {
          void (async () => {
            const printed = /bench: dashboard (http:\/\/127\.0\.0\.1:\d+\/)/;
            await waitForText(output, printed);
            url = printed.exec(output())?.[1] ?? '';
            const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
            page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
            page.on('pageerror', (e) => consoleErrors.push(e.message));
            page.on('request', (r) => !r.url().startsWith(url) && !r.url().startsWith('blob:') && offMachine.push(r.url()));
            await page.goto(url);
            // the cell's seconds over time, as the chart's numbers table lists them
            const points = () =>
              page.evaluate(() => [...document.querySelectorAll('#bench-live details')].at(-1)?.querySelectorAll('tr').length ?? 0);
            await page.waitForFunction(() => document.querySelector('#bench-live figure.chart [data-drawn]') !== null, undefined, {
              timeout: 20_000,
            });
            pointsSeen.push(await points());
            await page.screenshot({ path: path.join(screenshots, 'dashboard-live-1.png'), fullPage: true });
            await sleep(3000);
            pointsSeen.push(await points());
            await page.screenshot({ path: path.join(screenshots, 'dashboard-live-2.png'), fullPage: true });
            await page.waitForFunction(
              () => /The run has ended/.test(document.getElementById('bench-live-status')?.textContent ?? ''),
              undefined,
              {
                timeout: 30_000,
              },
            );
            finalStatus = (await page.textContent('#bench-live-status')) ?? '';
            await page.screenshot({ path: path.join(screenshots, 'dashboard-final.png'), fullPage: true });
            await page.close();
          })();
        },
        timeoutMs: 90_000,
      },
    );
    expect(run.code).toBe(0);
    expect(consoleErrors).toEqual([]);
    expect(offMachine).toEqual([]);
    // the charts grew between the two looks
    expect(pointsSeen).toHaveLength(2);
    expect(pointsSeen[1]).toBeGreaterThan(pointsSeen[0] ?? 0);
    expect(finalStatus).toContain('save the final report');
    expect(await refused(Number(new URL(url).port))).toBe(true);
  });

  it('refuses a port in use before any load, with one line', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const run = await runCli([...'run hello -t node -c 5 -d 2 --dashboard --dashboard-port'.split(' '), String(port)]);
      expect(run.code).toBe(2);
      expect(run.stderr.trim()).toBe(
        `bench: BENCH_ERR_USAGE: --dashboard-port ${port} is in use; choose another port, or 0 for any free one`,
      );
    } finally {
      server.close();
    }
  });
});
