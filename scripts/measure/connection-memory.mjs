// What one open connection costs the wire engine in memory: it opens `few` connections, then `many` more, to a plain
// Node server on CPU 0, each answering one request, and reads this process's resident memory and JS heap after a full
// garbage collection at both points. Run it after `npm run build`:
//   node --expose-gc scripts/measure/connection-memory.mjs [few=50] [many=3000]
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
// the engine's connection layer itself (not exported: this measures its insides)
import { WireRun } from '../../packages/engines/dist/wire/wire-run.js';

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const [few = 50, many = 3000] = process.argv.slice(2).map(Number);
const port = 18_000 + (process.pid % 1000);
const serve = `require('node:http').createServer((q, s) => s.end('Hello World')).listen(${port}, '127.0.0.1')`;
const server = spawn('taskset', ['-c', '0', process.execPath, '-e', serve], { stdio: 'inherit' });
await sleep(500);

const hello = Buffer.from('Hello World');
const run = new WireRun(
  {
    url: `http://127.0.0.1:${port}/`,
    request: { method: 'GET', path: '/', headers: {} },
    expect: { kind: 'exact', length: hello.length, bytes: () => hello },
    shape: { connections: many, keepAlive: true, timeoutSeconds: 30, durationSeconds: 1 },
  },
  { index: 0, count: 1, startAtNs: process.hrtime.bigint() },
);
/** Opens n connections, each sending one request, and waits for every answer. */
const open = (n) =>
  new Promise((resolve) => {
    let answered = 0;
    const events = {
      connected: (c) => c.send(1),
      answered: () => ++answered === n && resolve(),
      failed: (_c, kind, message) => console.error(`${kind}: ${message}`),
      ended: () => {},
    };
    for (let i = 0; i < n; i++) run.open(events);
  });
const reading = () => {
  globalThis.gc();
  globalThis.gc();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
};

await open(few);
const before = reading();
await open(many);
const after = reading();
const perConnection = (key) => ((after[key] - before[key]) / many / 1024).toFixed(1);
console.log(
  `${many} connections on top of ${few}: ${perConnection('rss')} KB resident and ${perConnection('heapUsed')} KB of JS heap each`,
);
run.finish(process.hrtime.bigint(), 1);
server.kill();
process.exit(0);
