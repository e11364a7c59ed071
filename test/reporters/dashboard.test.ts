import { mkdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/browser.js';
import { repoRoot, runCli, waitForText } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';
import { allowedCpus, readProcessTable } from '@bench/core';

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

/** A request to the dashboard for `path` naming `host` (and `origin`): its status and headers. */
const ask = (port: number, path: string, host: string, origin?: string) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, headers: { host, ...(origin ? { origin } : {}) } }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, headers: response.headers });
    });
    request.once('error', reject);
  });

/** The CPUs the runner's dashboard process may run on: the child of `runner` that runs dashboard-process.js. */
function dashboardCpus(runner: number): string | undefined {
  const child = readProcessTable().find(
    (p) => p.ppid === runner && readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').includes('dashboard-process.js'),
  );
  return child ? allowedCpus(child.pid) : undefined;
}

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
    const answers: { status: number; headers: http.IncomingHttpHeaders }[] = [];
    const cpus: (string | undefined)[] = [];
    const run = await runCli(
      [
        ...'run hello -t node -c 5 -d 8 --rate 400 --warmup 0 --cpus client=0 --dashboard --dashboard-port 0 -r json -o'.split(' '),
        path.join(dir, 'results.json'),
      ],
      {
        onSpawn: (child, output) => {
          void (async () => {
            const printed = /bench: dashboard (http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}\/)/;
            await waitForText(output, printed);
            url = printed.exec(output())?.[1] ?? '';
            // a page elsewhere that rebinds its name to 127.0.0.1 is refused; the dashboard's own names are not
            const port = Number(new URL(url).port);
            const { pathname } = new URL(url);
            for (const host of [`rebind.example:${port}`, `127.0.0.1:${port + 1}`, `localhost:${port}`, `127.0.0.1:${port}`])
              answers.push(await ask(port, pathname, host, 'http://rebind.example'));
            // without the run's token, or with another, nothing of the run is served
            const other = `/${'A'.repeat(32)}/`;
            for (const path of ['/', '/body', other, `${other}body`, `${pathname.slice(0, -2)}/body`])
              answers.push(await ask(port, path, `127.0.0.1:${port}`));
            // while the generator runs pinned to CPU 0, the dashboard renders elsewhere
            const pinned = Date.now() + 20_000;
            while (allowedCpus(child.pid ?? 0) !== '0' && Date.now() < pinned) await sleep(20);
            cpus.push(allowedCpus(child.pid ?? 0), dashboardCpus(child.pid ?? 0));
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
    expect(answers.map((a) => a.status)).toEqual([421, 421, 200, 200, 403, 403, 403, 403, 403]);
    expect(answers.flatMap((a) => Object.keys(a.headers).filter((h) => h.startsWith('access-control-')))).toEqual([]);
    // the generator pinned to CPU 0 (the runner's every thread), the dashboard on the other
    expect(cpus).toEqual(['0', '1']);
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
