// What the live dashboard costs a cell when a browser has it open, beside the same cell with none, in one run:
// `bench run hello -t node --repeat N --dashboard`, a headless Chromium showing the page during the even rounds
// only (opened before the round's target starts, closed when its cell ends). Prints each round's rps, p99, the
// generator's CPU and event-loop delay, then the medians with and without the browser. After `npm run build`,
// on a quiet machine:
//   node scripts/measure/dashboard-cost.mjs [rounds=8] [seconds=10] [connections=50]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const [rounds = 8, seconds = 10, connections = 50] = process.argv.slice(2).map(Number);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'benchtest-dashboard-cost-'));
const results = path.join(dir, 'results.json');
const args = ['run', 'hello', '-t', 'node', '-c', String(connections), '-d', String(seconds), '--repeat', String(rounds)];
const browser = await chromium.launch({ executablePath: process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const withBrowser = new Set();
try {
  const child = spawn(
    process.execPath,
    [path.join(root, 'packages/runner/bin/bench.js'), ...args, '--dashboard', '--dashboard-port', '0', '-r', 'json', '-o', results],
    {
      env: { ...process.env, CI: 'true' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let url = '';
  let round = 0;
  let page;
  let pending = '';
  let steps = Promise.resolve();
  child.stderr.on('data', (chunk) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      process.stderr.write(`${line}\n`);
      url ||= /bench: dashboard (\S+)/.exec(line)?.[1] ?? '';
      if (/^bench: starting node/.test(line) && ++round % 2 === 0) {
        withBrowser.add(round);
        steps = steps.then(async () => {
          page = await browser.newPage();
          await page.goto(url);
        });
      } else if (/^bench: hello node c=\d+: /.test(line))
        steps = steps.then(async () => {
          await page?.close();
          page = undefined;
        });
    }
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  await steps;
  if (code !== 0) throw new Error(`bench run exited ${code}`);
  const doc = JSON.parse(readFileSync(results, 'utf8'));
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const rows = doc.results.map((r) => ({
    round: r.repeat,
    browser: withBrowser.has(r.repeat),
    rps: r.rps,
    p99: r.latency.p99,
    generatorCpu: r.resources?.client?.cpuPercent ?? NaN,
    loopP99: r.eventLoopDelay?.p99 ?? NaN,
  }));
  console.log('round  browser        rps   p99 ms  generator CPU %  event loop p99 ms');
  for (const r of rows)
    console.log(
      `${String(r.round).padStart(5)}  ${(r.browser ? 'open' : 'none').padEnd(7)} ${r.rps.toFixed(1).padStart(10)} ${r.p99.toFixed(2).padStart(8)} ${r.generatorCpu.toFixed(1).padStart(16)} ${r.loopP99.toFixed(2).padStart(18)}`,
    );
  for (const open of [false, true]) {
    const group = rows.filter((r) => r.browser === open);
    console.log(
      `median, browser ${open ? 'open' : 'none'}: ${median(group.map((r) => r.rps)).toFixed(1)} rps, p99 ${median(group.map((r) => r.p99)).toFixed(2)} ms, generator CPU ${median(group.map((r) => r.generatorCpu)).toFixed(1)}%, event loop p99 ${median(group.map((r) => r.loopP99)).toFixed(2)} ms (${group.length} cells)`,
    );
  }
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
