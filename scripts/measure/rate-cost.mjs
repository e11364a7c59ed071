// What a request costs the client at a set arrival rate, beside wire's closed loop, in the same rounds: client CPU
// microseconds per request of `--rate R` on wire (what --rate runs on now: its native core, and its js core beside
// it), on the open loop (undici, what it ran on before), and of wire's closed loop at -c 50 (its native core). A plain Node server on CPU 0 answers; run the
// client on CPU 1, after `npm run build`:
//   taskset -c 1 node scripts/measure/rate-cost.mjs [rate=20000] [rounds=5] [seconds=5] [connections=200]
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { builtinEngines } from '@bench/engines';

const [rate = 20000, rounds = 5, seconds = 5, connections = 200] = process.argv.slice(2).map(Number);
const port = 18_000 + (process.pid % 1000);
const serve = `require('node:http').createServer((q, s) => s.end('Hello World')).listen(${port}, '127.0.0.1')`;
const server = spawn('taskset', ['-c', '0', process.execPath, '-e', serve], { stdio: 'inherit' });
await sleep(500);

const engine = (name) => builtinEngines.find((e) => e.name === name);
const hello = Buffer.from('Hello World');
const kinds = {
  'wire --rate': { engine: engine('wire'), shape: { connections, rate } },
  'wire --rate --core js': { engine: engine('wire'), shape: { connections, rate }, options: { core: 'js' } },
  'open-loop --rate': { engine: engine('open-loop'), shape: { connections, rate } },
  'wire closed loop -c 50': { engine: engine('wire'), shape: { connections: 50 } },
};
const run = ({ engine: e, shape, options }) =>
  e.run({
    url: `http://127.0.0.1:${port}/`,
    request: { method: 'GET', path: '/', headers: {} },
    expect: { kind: 'exact', length: hello.length, bytes: () => hello },
    shape: { durationSeconds: seconds, keepAlive: true, timeoutSeconds: 10, ...shape },
    ...(options ? { options } : {}),
  });
const microsecondsPerRequest = (m) => (((m.client?.cpuPercent ?? 0) / 100) * m.durationSeconds * 1e6) / m.requests;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  // one run of each first: threads and V8's code warm
  for (const kind of Object.values(kinds)) await run(kind);
  const cost = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  const rps = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    const names = Object.keys(kinds);
    // the order turns each round, so no kind always runs first
    for (const name of [...names.slice(round % names.length), ...names.slice(0, round % names.length)]) {
      const m = await run(kinds[name]);
      cost[name].push(microsecondsPerRequest(m));
      rps[name].push(m.requests / m.durationSeconds);
    }
  }
  for (const name of Object.keys(kinds))
    console.log(
      `${name}: ${cost[name].map((c) => c.toFixed(1)).join(' ')} µs a request (median ${median(cost[name]).toFixed(1)}), ${median(rps[name]).toFixed(0)} rps`,
    );
  const closed = median(cost['wire closed loop -c 50']);
  console.log(`--rate ${rate} on wire / wire's closed loop: ${(median(cost['wire --rate']) / closed).toFixed(2)}x`);
  console.log(`--rate ${rate} on wire's js core / wire's closed loop: ${(median(cost['wire --rate --core js']) / closed).toFixed(2)}x`);
  console.log(`--rate ${rate} on the open loop / wire's closed loop: ${(median(cost['open-loop --rate']) / closed).toFixed(2)}x`);
} finally {
  server.kill();
}
