// What one request costs bench's open loop on one client thread and on two, at the same arrival
// rate: client CPU microseconds per request, in runs that alternate 1 and 2 threads (warm threads,
// after one run of each). A plain Node server on CPU 0 answers; run it with the client on CPU 1,
// after `npm run build`:
//   taskset -c 1 node scripts/measure/thread-cost.mjs [rate=5000] [pairs=6] [seconds=5]
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { builtinEngines } from '@bench/engines';

const [rate = 5000, pairs = 6, seconds = 5] = process.argv.slice(2).map(Number);
const port = 18_000 + (process.pid % 1000);
const serve = `require('node:http').createServer((q, s) => s.end('Hello World')).listen(${port}, '127.0.0.1')`;
const server = spawn('taskset', ['-c', '0', process.execPath, '-e', serve], { stdio: 'inherit' });
await sleep(500);

const openLoop = builtinEngines.find((e) => e.name === 'open-loop');
const run = (threads) =>
  openLoop.run({
    url: `http://127.0.0.1:${port}/`,
    request: { method: 'GET', path: '/', headers: {} },
    expect: { kind: 'any' },
    shape: { connections: 50, rate, durationSeconds: seconds, keepAlive: true, timeoutSeconds: 10, ...(threads > 1 ? { threads } : {}) },
  });
const microsecondsPerRequest = (m) => (((m.client?.cpuPercent ?? 0) / 100) * m.durationSeconds * 1e6) / m.requests;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  await run(1);
  await run(2);
  const cost = { 1: [], 2: [] };
  for (let pair = 0; pair < pairs; pair++)
    for (const threads of pair % 2 ? [2, 1] : [1, 2]) cost[threads].push(microsecondsPerRequest(await run(threads)));
  for (const threads of [1, 2])
    console.log(
      `${threads} thread(s): ${cost[threads].map((c) => c.toFixed(1)).join(' ')} µs per request, median ${median(cost[threads]).toFixed(1)}`,
    );
  console.log(`two threads / one: ${(median(cost[2]) / median(cost[1])).toFixed(2)} at ${rate} rps`);
} finally {
  server.kill();
}
