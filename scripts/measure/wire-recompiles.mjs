// What V8 recompiles in the wire engine's thread run after run: TurboFan compiles, their time on V8's helper threads,
// deoptimizations, and the CPU of each of the process's threads, for consecutive runs in one kept thread (as a cell's
// warm-up and measured run, and selfbench's rounds, reuse it). A plain Node server on CPU 0 answers; run it with the
// client on CPU 1, after `npm run build`:
//   taskset -c 1 node scripts/measure/wire-recompiles.mjs [runs=6] [connections=3000]
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const [runs = 6, connections = 3000] = process.argv.slice(2, 4).map(Number);

if (!process.env.WIRE_RECOMPILES_CHILD) {
  // the measuring process runs under V8's traces; this one reads them
  const child = spawn(
    process.execPath,
    ['--trace-opt', '--trace-deopt', fileURLToPath(import.meta.url), String(runs), String(connections)],
    {
      env: { ...process.env, WIRE_RECOMPILES_CHILD: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const perRun = [];
  let run = -1;
  let buffered = '';
  child.stdout.on('data', (data) => {
    buffered += data;
    const lines = buffered.split('\n');
    buffered = lines.pop();
    for (const line of lines) {
      const start = /^RUN (\d+) starts/.exec(line);
      if (start) perRun[(run = Number(start[1]))] = { compiles: 0, compileMs: 0, deopts: 0 };
      else if (line.startsWith('RUN ')) perRun[run].result = line.replace(/^RUN \d+: /, '');
      else if (run >= 0 && line.startsWith('[completed compiling')) {
        perRun[run].compiles++;
        perRun[run].compileMs += Number(/took [\d.]+, ([\d.]+)/.exec(line)?.[1] ?? 0);
      } else if (run >= 0 && (line.startsWith('[bailout') || line.startsWith('[marking dependent code'))) perRun[run].deopts++;
    }
  });
  await new Promise((resolve) => child.once('exit', resolve));
  console.log(`c=${connections}: each run in the same kept thread (run 0 lasts 1 s, the others 4 s)`);
  perRun.forEach((r, i) =>
    console.log(
      `  run ${i}: ${r.compiles} compiles (${r.compileMs.toFixed(0)} ms on helper threads), ${r.deopts} deoptimizations; ${r.result}`,
    ),
  );
  process.exit(0);
}

const { builtinEngines } = await import('@bench/engines');
const port = 18_000 + (process.pid % 1000);
const url = `http://127.0.0.1:${port}/`;
const serve = `require('node:http').createServer((q, s) => s.end('Hello World')).listen(${port}, '127.0.0.1')`;
const server = spawn('taskset', ['-c', '0', process.execPath, '-e', serve], { stdio: 'ignore' });
await sleep(500);
const wire = builtinEngines.find((e) => e.name === 'wire');
const hello = Buffer.from('Hello World');
const plan = (durationSeconds) => ({
  url,
  request: { method: 'GET', path: '/', headers: {} },
  expect: { kind: 'exact', length: hello.length, bytes: () => hello },
  shape: { connections, durationSeconds, keepAlive: true, timeoutSeconds: 10 },
});
// each thread's CPU (ms, 10 ms ticks) from /proc: the engine's thread, V8's helper threads, the main thread
const threadTicks = () =>
  Object.fromEntries(
    readdirSync('/proc/self/task').map((tid) => [
      tid,
      readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
        .split(') ')[1]
        .split(' ')
        .slice(11, 13)
        .map(Number)
        .reduce((a, b) => a + b),
    ]),
  );
try {
  for (let run = 0; run < runs; run++) {
    console.log(`RUN ${run} starts`);
    const before = threadTicks();
    const cpu = process.cpuUsage();
    const m = await wire.run(plan(run === 0 ? 1 : 4));
    const used = process.cpuUsage(cpu);
    const threads = Object.entries(threadTicks())
      .map(([tid, ticks]) => (ticks - (before[tid] ?? 0)) * 10)
      .filter((ms) => ms > 0)
      .sort((a, b) => b - a);
    console.log(`RUN ${run}: ${((used.user + used.system) / m.requests).toFixed(2)} µs a request, threads (ms): ${threads.join(', ')}`);
    await sleep(500);
  }
} finally {
  server.kill();
}
