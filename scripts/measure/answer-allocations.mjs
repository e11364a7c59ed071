// What the wire engine allocates an answer: V8's sampling heap profiler, the objects collected since included, over a
// 3 s run at -c 3000 against a plain Node server on CPU 0, after two warm-up runs in the same thread. A checkout given
// as the argument is measured instead of this one (its build), to compare two builds:
//   taskset -c 1 node scripts/measure/answer-allocations.mjs [checkout=.]
import { spawn } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const checkout = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', '..'));
const { runClosedLoop } = await import(pathToFileURL(path.join(checkout, 'packages/engines/dist/wire/closed-loop.js')).href);
const port = 18_000 + (process.pid % 1000);
const serve = `require('node:http').createServer((q, s) => s.end('Hello World')).listen(${port}, '127.0.0.1', 4096)`;
const server = spawn('taskset', ['-c', '0', process.execPath, '-e', serve], { stdio: 'inherit' });
await sleep(500);
const plan = (durationSeconds) => ({
  url: `http://127.0.0.1:${port}/`,
  request: { method: 'GET', path: '/', headers: {} },
  expect: { kind: 'any' },
  shape: { connections: 3000, durationSeconds, keepAlive: true, timeoutSeconds: 10 },
});
const slot = () => ({ index: 0, count: 1, startAtNs: process.hrtime.bigint() });
try {
  for (let i = 0; i < 2; i++) await runClosedLoop(plan(1), slot());
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  const m = await runClosedLoop(plan(3), slot());
  const { profile } = await session.post('HeapProfiler.stopSampling');
  let bytes = 0;
  const walk = (node) => {
    bytes += node.selfSize;
    node.children?.forEach(walk);
  };
  walk(profile.head);
  console.log(`${checkout}: ${m.requests} answers, ${(bytes / m.requests).toFixed(0)} bytes allocated an answer (sampled)`);
} finally {
  server.kill();
}
