// What outside load tools cost the client beside bare wrk, as `bench selfbench` measures bench's own engines: Node's
// hello (`bench serve node hello`) pinned to CPU 0, each tool pinned to CPU 1, rounds interleaved (the order
// alternating), each tool's CPU as the kernel counted it for its process (bash's `times`). vegeta and oha come from
// scripts/measure/build-outside-tools.sh (the Go module proxy, crates.io); a tool not built is skipped with a line.
// After `npm run build`:
//   node scripts/measure/outside-cost.mjs [rounds=3] [seconds=5] [connections=50] [rates=20000,30000]
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { builtinEngines, runBareTool } from '../../packages/engines/dist/bundle/index.js';
import { splitChildCpu } from '../../packages/engines/dist/bare-tool.js';

const [rounds = 3, seconds = 5, connections = 50] = process.argv.slice(2, 5).map(Number);
const rates = (process.argv[5] ?? '20000,30000').split(',').map(Number);
const toolsDir = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'bench', 'tools', 'bin');
const work = mkdtempSync(path.join(os.tmpdir(), 'outside-cost-'));
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

// the server, as selfbench starts it: bench serves Node's hello on CPU 0 and prints its URL first
const server = spawn('taskset', ['-c', '0', process.execPath, 'packages/runner/bin/bench.js', 'serve', 'node', 'hello'], {
  stdio: ['ignore', 'pipe', 'ignore'],
  detached: true,
});
const url = await new Promise((resolve) => createInterface({ input: server.stdout }).once('line', resolve));
const stop = () => {
  try {
    process.kill(-server.pid, 'SIGINT');
  } catch {
    // gone already
  }
  rmSync(work, { recursive: true, force: true });
};
process.on('exit', stop);

/** A command on CPU 1, its CPU over its whole life from bash's `times` after it exits. */
function timed(command, args) {
  const stdout = execFileSync(
    'taskset',
    ['-c', '1', 'bash', '-c', '"$@"; code=$?; echo; echo bench-bare-cpu; times; exit $code', 'outside', command, ...args],
    { maxBuffer: 1 << 26 },
  ).toString();
  return splitChildCpu(stdout);
}

const vegeta = path.join(toolsDir, 'vegeta');
const oha = path.join(toolsDir, 'oha');
const targets = path.join(work, 'targets.txt');
writeFileSync(targets, `GET ${url}\n`);

/** One run of a tool: requests answered, rps, CPU seconds, and the rate it sent at when one was asked. */
const runs = {
  wrk: () =>
    runBareTool(
      builtinEngines.find((e) => e.name === 'wrk'),
      url,
      connections,
      seconds,
      '1',
    ),
  vegeta: (rate) => {
    const out = path.join(work, 'vegeta.bin');
    const pace = rate === undefined ? ['-rate=0', `-max-workers=${connections}`] : [`-rate=${rate}/s`, `-max-workers=${connections}`];
    const { cpuSeconds } = timed(vegeta, [
      'attack',
      `-targets=${targets}`,
      `-duration=${seconds}s`,
      `-workers=${connections}`,
      ...pace,
      `-output=${out}`,
    ]);
    const report = JSON.parse(execFileSync(vegeta, ['report', '-type=json', out]).toString());
    return { rps: report.throughput, requests: report.requests, cpuSeconds, sentRate: report.rate };
  },
  oha: (rate) => {
    const pace = rate === undefined ? [] : ['-q', String(rate)];
    const { output, cpuSeconds } = timed(oha, [
      '--no-tui',
      '--output-format',
      'json',
      '-z',
      `${seconds}s`,
      '-c',
      String(connections),
      ...pace,
      url,
    ]);
    const report = JSON.parse(output);
    const requests = Object.values(report.statusCodeDistribution ?? {}).reduce((a, b) => a + b, 0);
    return { rps: report.summary.requestsPerSec, requests, cpuSeconds };
  },
};

const tools = ['wrk'];
for (const [name, binary] of [
  ['vegeta', vegeta],
  ['oha', oha],
])
  if (existsSync(binary)) tools.push(name);
  else console.log(`${name}: skipped: not built (bash scripts/measure/build-outside-tools.sh)`);
// wrk runs closed only; the others closed and at each rate
const sides = tools.flatMap((tool) => [[tool, undefined], ...(tool === 'wrk' ? [] : rates.map((rate) => [tool, rate]))]);
const results = new Map(sides.map(([tool, rate]) => [`${tool} ${rate ?? 'closed'}`, []]));
// a warm-up, so the first tool does not meet a cold server (its JIT): bare wrk for 3 s, not counted
await runBareTool(
  builtinEngines.find((e) => e.name === 'wrk'),
  url,
  connections,
  3,
  '1',
);
for (let round = 1; round <= rounds; round++)
  for (const [tool, rate] of round % 2 === 1 ? sides : [...sides].reverse()) {
    const m = await runs[tool](rate);
    const line = `${tool} ${rate === undefined ? 'closed' : `at ${rate}`} round ${round}: ${Math.round(m.rps)} rps, ${m.requests} requests, ${m.cpuSeconds.toFixed(2)} s CPU${m.sentRate !== undefined ? `, sent at ${Math.round(m.sentRate)}/s` : ''}`;
    console.log(line);
    results.get(`${tool} ${rate ?? 'closed'}`).push(m);
  }

console.log(
  `\nNode's hello on CPU 0, each tool on CPU 1, -c ${connections}, ${seconds} s, ${rounds} rounds (medians; µs of client CPU a request in each round):\n`,
);
console.log('| tool | run | rps | µs of client CPU a request | rps per client CPU-second |');
console.log('| --- | --- | ---: | --- | ---: |');
for (const [key, ms] of results) {
  const [tool, mode] = key.split(' ');
  const micros = ms.map((m) => (m.cpuSeconds * 1e6) / m.requests);
  console.log(
    `| ${tool} | ${mode === 'closed' ? 'closed loop' : `--rate ${mode}`} | ${Math.round(median(ms.map((m) => m.rps))).toLocaleString('en-US')} | ${micros.map((u) => u.toFixed(1)).join(' ')}: ${median(micros).toFixed(1)} | ${Math.round(median(ms.map((m) => m.requests / m.cpuSeconds))).toLocaleString('en-US')} |`,
  );
}
stop();
process.exit(0);
