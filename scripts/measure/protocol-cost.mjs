#!/usr/bin/env node
// What TLS and HTTP/2 cost each stack: one scenario over http1, https and h2, with and without keep-alive, on each
// target, all driven by the same engine (k6: the one that speaks all three and can close every connection); each
// combination a bench run of its own with --repeat, so the table gives each one's median rps with its range; a second
// table gives what TLS and HTTP/2 cost each stack (the change of the median rps against http1 in the same connection
// mode, with its 95% bootstrap interval over the rounds) and what a handshake took (k6's per-request samples).
// Usage: node scripts/measure/protocol-cost.mjs [rounds=3] [seconds=5] [connections=20] [more bench run flags...]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = path.join(root, 'packages', 'runner', 'bin', 'bench.js');
const { bootstrapChangeInterval } = await import(path.join(root, 'packages', 'core', 'dist', 'bundle', 'index.js'));
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
const pct = (value) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}%`;
/** The change of the median rps from base to head, with its 95% bootstrap interval over the rounds. */
const change = (base, head) => {
  if (!base?.length || !head?.length) return 'n/a';
  const [low, high] = bootstrapChangeInterval(base, head);
  return `${pct(((median(head) - median(base)) / median(base)) * 100)} (${pct(low)} .. ${pct(high)})`;
};
const ms = (values) => (values.length ? `${median(values).toFixed(2)} ms` : 'n/a');
try {
  const rows = [];
  const costs = [];
  for (const { scenario, target } of stacks) {
    const row = { stack: `${target} (${scenario})` };
    const rps = {};
    const handshakes = {};
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
        const key = `${protocol}${keepAlive ? '' : ' new conn'}`;
        row[key] = cells.length ? fmt(cells.map((r) => r.rps)) : 'failed';
        rps[key] = cells.map((r) => r.rps);
        handshakes[key] = cells.flatMap((r) => (r.connects?.handshake ? [r.connects.handshake.p50] : []));
      }
    }
    rows.push(row);
    costs.push({
      stack: row.stack,
      'https vs http1': change(rps.http1, rps.https),
      'h2 vs http1': change(rps.http1, rps.h2),
      'https vs http1, new conn': change(rps['http1 new conn'], rps['https new conn']),
      'h2 vs http1, new conn': change(rps['http1 new conn'], rps['h2 new conn']),
      'TLS handshake p50, new conn (https)': ms(handshakes['https new conn']),
    });
  }
  const print = (table) => {
    const columns = Object.keys(table[0]);
    console.log(`| ${columns.join(' | ')} |`);
    console.log(`| ${columns.map((c, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`);
    for (const row of table) console.log(`| ${columns.map((c) => row[c]).join(' | ')} |`);
  };
  console.log('Requests per second, median of the rounds [min-max]:\n');
  print(rows);
  console.log('\nWhat TLS and HTTP/2 cost each stack: change of the median rps against http1, (95% bootstrap interval):\n');
  print(costs);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
