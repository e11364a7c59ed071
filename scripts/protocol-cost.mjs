#!/usr/bin/env node
// What TLS and HTTP/2 cost each stack: one scenario over http1, https and h2, with and without keep-alive, on each
// target, all driven by the same engine (k6: the one that speaks all three and can close every connection); each
// combination a bench run of its own with --repeat, so the table gives each one's median rps with its range.
// Usage: node scripts/protocol-cost.mjs [rounds=3] [seconds=5] [connections=20] [more bench run flags...]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'packages', 'runner', 'dist', 'cli.js');
const [rounds = '3', seconds = '5', connections = '20', ...more] = process.argv.slice(2);
const dir = mkdtempSync(path.join(os.tmpdir(), 'protocol-cost-'));
// nginx serves a file; Node and PHP-FPM (behind nginx) run the hello program
const stacks = [
  { scenario: 'file', target: 'nginx-static' },
  { scenario: 'hello', target: 'node' },
  { scenario: 'hello', target: 'php-fpm' },
];
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (rps) =>
  `${Math.round(median(rps)).toLocaleString('en-US')} [${Math.round(Math.min(...rps)).toLocaleString('en-US')}-${Math.round(Math.max(...rps)).toLocaleString('en-US')}]`;
try {
  const rows = [];
  for (const { scenario, target } of stacks) {
    const row = { stack: `${target} (${scenario})` };
    for (const keepAlive of [true, false]) {
      for (const protocol of ['http1', 'https', 'h2']) {
        const out = path.join(dir, `${target}-${protocol}-${keepAlive}.json`);
        const args = ['run', scenario, '-t', target, '--protocol', protocol, '--engine', 'k6', '-c', connections, '-d', seconds];
        args.push('--repeat', rounds, '-r', 'json', '-o', out, ...(keepAlive ? [] : ['--no-keepalive']), ...more);
        try {
          execFileSync(process.execPath, [cli, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
        } catch {
          // a run whose cells failed exits 1: its results file says which
        }
        const cells = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')).results.filter((r) => r.status === 'ok') : [];
        row[`${protocol}${keepAlive ? '' : ' new conn'}`] = cells.length ? fmt(cells.map((r) => r.rps)) : 'failed';
      }
    }
    rows.push(row);
  }
  const columns = Object.keys(rows[0]);
  console.log(`| ${columns.join(' | ')} |`);
  console.log(`| ${columns.map((c, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`);
  for (const row of rows) console.log(`| ${columns.map((c) => row[c]).join(' | ')} |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
