// What a request costs the wire engine's client on each of its cores (native, js), beside bare wrk's, in interleaved
// rounds: client CPU per answered request, split into user and system time. A plain Node server on CPU 0 answers; run it with the client on CPU 1,
// after `npm run build`:
//   taskset -c 1 node scripts/measure/wire-cost.mjs [rounds=3] [seconds=5] [connections=50,3000]
import { execFileSync, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { builtinEngines } from '@bench/engines';

const [rounds = 3, seconds = 5] = process.argv.slice(2, 4).map(Number);
const levels = (process.argv[4] ?? '50,3000').split(',').map(Number);
const port = 18_000 + (process.pid % 1000);
const url = `http://127.0.0.1:${port}/`;
const serve = `require('node:http').createServer((q, s) => s.end('Hello World')).listen(${port}, '127.0.0.1')`;
const server = spawn('taskset', ['-c', '0', process.execPath, '-e', serve], { stdio: 'inherit' });
await sleep(500);

const wire = builtinEngines.find((e) => e.name === 'wire');
const plan = (connections, durationSeconds, core = 'native') => ({
  url,
  request: { method: 'GET', path: '/', headers: {} },
  expect: { kind: 'any' },
  shape: { connections, durationSeconds, keepAlive: true, timeoutSeconds: 10 },
  options: { core },
});

// this process's CPU over one run of the engine (its worker thread included), per answered request
async function wireRun(connections, core) {
  const before = process.cpuUsage();
  const m = await wire.run(plan(connections, seconds, core));
  const used = process.cpuUsage(before);
  return { requests: m.requests, userUs: used.user / m.requests, systemUs: used.system / m.requests };
}

// wrk's CPU as its shell's `times` reports a finished child's (user and system, seconds)
function wrkRun(connections) {
  const out = execFileSync('bash', ['-c', `wrk -t1 -c${connections} -d${seconds}s ${url}; times`], { encoding: 'utf8' });
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const seconds_ = (text) => {
    const [, m, s] = /(\d+)m([\d.]+)s/.exec(text);
    return Number(m) * 60 + Number(s);
  };
  const [user, system] = out.trim().split('\n').at(-1).split(/\s+/).map(seconds_);
  return { requests, userUs: (user * 1e6) / requests, systemUs: (system * 1e6) / requests };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const f = (n) => n.toFixed(1);
try {
  await wire.run(plan(Math.min(...levels), 1));
  await wire.run(plan(Math.min(...levels), 1, 'js'));
  for (const connections of levels) {
    const tools = ['wrk', 'wire', 'wire js'];
    const runs = Object.fromEntries(tools.map((tool) => [tool, []]));
    for (let round = 0; round < rounds; round++)
      for (const tool of round % 2 ? [...tools].reverse() : tools)
        runs[tool].push(tool === 'wrk' ? wrkRun(connections) : await wireRun(connections, tool === 'wire' ? 'native' : 'js'));
    const total = (r) => r.userUs + r.systemUs;
    console.log(`c=${connections}, ${rounds} rounds of ${seconds} s: client CPU per request, µs (user + system)`);
    for (const tool of tools)
      console.log(
        `  ${tool.padEnd(7)} ${runs[tool].map((r) => `${f(total(r))} (${f(r.userUs)} + ${f(r.systemUs)})`).join('  ')}  median ${f(median(runs[tool].map(total)))}`,
      );
    for (const tool of ['wire', 'wire js']) {
      const ratios = runs[tool].map((r, i) => total(r) / total(runs.wrk[i]));
      console.log(`  ${tool} / wrk by round: ${ratios.map((r) => r.toFixed(2)).join(' ')}, median ${median(ratios).toFixed(2)}`);
    }
  }
} finally {
  server.kill();
}
