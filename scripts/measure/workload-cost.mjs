#!/usr/bin/env node
// What a workload costs the load generator per request: one run, rounds interleaved, of a fixed request, the same
// request with a generated value, a mix of two, and a two-step flow with a capture, all against one bare Node server
// (pinned apart from the generator); prints each one's rps and client CPU per answered request (medians of the rounds).
// Usage: node scripts/measure/workload-cost.mjs [rounds=3] [engine=autocannon] [more bench run flags...]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'packages', 'runner', 'bin', 'bench.js');
const [rounds = '3', engine = 'autocannon', ...more] = process.argv.slice(2);
const dir = mkdtempSync(path.join(os.tmpdir(), 'workload-cost-'));
const server = `require('node:http').createServer((q, r) => { r.writeHead(200, { 'content-type': 'application/json', 'content-length': 14 }); r.end('{"token":"t1"}'); }).listen(Number(process.env.PORT), process.env.HOST)`;
const scenarios = [
  { name: 'fixed', path: '/items/7' },
  { name: 'generated', path: '/items/{{randomInt 1 1000}}' },
  {
    name: 'mix',
    mix: [
      { name: 'read', weight: 80, path: '/items/7' },
      { name: 'write', weight: 20, method: 'POST', path: '/items', body: { n: 1 } },
    ],
  },
  {
    name: 'flow',
    steps: [
      { name: 'token', path: '/token', capture: { token: { json: 'token' } } },
      { name: 'use', path: '/items/7', headers: { authorization: 'Bearer {{token}}' } },
    ],
  },
];
writeFileSync(
  path.join(dir, 'bench.config.mjs'),
  `export default { targets: [{ name: 'bare', command: ${JSON.stringify(process.execPath)}, args: ['-e', ${JSON.stringify(server)}] }], scenarios: ${JSON.stringify(scenarios)} };\n`,
);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
try {
  const out = path.join(dir, 'results.json');
  const args = [
    'run',
    '-c',
    '50',
    '-d',
    '5',
    '--repeat',
    rounds,
    '--engine',
    engine,
    '--cpus',
    'server=0,client=1',
    '-r',
    'json',
    '-o',
    out,
    ...more,
  ];
  execFileSync(process.execPath, [cli, ...args], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  const results = JSON.parse(readFileSync(out, 'utf8')).results;
  console.log(`| scenario (${engine}, -c 50, ${rounds} rounds) | rps | client CPU | client µs per request |`);
  console.log('| --- | ---: | ---: | ---: |');
  for (const { name } of scenarios) {
    const cells = results.filter((r) => r.scenario === name && r.status === 'ok');
    const us = cells.map((r) => ((r.resources.client.cpuPercent / 100) * 1e6) / r.rps);
    console.log(
      `| ${name} | ${Math.round(median(cells.map((r) => r.rps)))} | ${median(cells.map((r) => r.resources.client.cpuPercent)).toFixed(0)}% | ${median(us).toFixed(1)} |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
