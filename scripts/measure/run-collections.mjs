// What V8's garbage collection costs a wire run, run after run in one thread: each run at -c `connections` for 2 s
// against a plain Node server on CPU 0, the full (mark-compact) collections in it, their pauses, and the process's
// CPU. A checkout given as the third argument is measured instead of this one (its build), to compare two builds:
//   taskset -c 1 node scripts/measure/run-collections.mjs [connections=3000] [runs=12] [checkout=.]
import { spawn } from 'node:child_process';
import path from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const [connections = 3000, runs = 12] = process.argv.slice(2, 4).map(Number);
const checkout = path.resolve(process.argv[4] ?? path.join(import.meta.dirname, '..', '..'));
const { runClosedLoop } = await import(pathToFileURL(path.join(checkout, 'packages/engines/dist/wire/closed-loop.js')).href);
const port = 18_000 + (process.pid % 1000);
const serve = `require('node:http').createServer((q, s) => s.end('Hello World')).listen(${port}, '127.0.0.1', 4096)`;
const server = spawn('taskset', ['-c', '0', process.execPath, '-e', serve], { stdio: 'inherit' });
await sleep(500);

let full = { count: 0, ms: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full = { count: full.count + 1, ms: full.ms + entry.duration };
}).observe({ entryTypes: ['gc'] });

const plan = {
  url: `http://127.0.0.1:${port}/`,
  request: { method: 'GET', path: '/', headers: {} },
  expect: { kind: 'any' },
  shape: { connections, durationSeconds: 2, keepAlive: true, timeoutSeconds: 10 },
};
console.log(`${checkout}: -c ${connections}, ${runs} runs of 2 s in one thread`);
const counted = [];
try {
  for (let run = 0; run < runs; run++) {
    await sleep(300);
    full = { count: 0, ms: 0 };
    const before = process.cpuUsage();
    const m = await runClosedLoop(plan, { index: 0, count: 1, startAtNs: process.hrtime.bigint() });
    // a collection the run's end set off lands in the next 100 ms
    await sleep(100);
    const used = process.cpuUsage(before);
    counted.push(full.count);
    console.log(
      `  run ${run}: ${m.requests} answers, ${full.count} full collections (${full.ms.toFixed(1)} ms of pauses), CPU ${((used.user + used.system) / 1000).toFixed(0)} ms`,
    );
  }
  console.log(`full collections in all: ${counted.reduce((a, b) => a + b, 0)}`);
} finally {
  server.kill();
}
