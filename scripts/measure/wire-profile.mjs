// Where a wire run's client CPU goes, by the code it runs in: bench's `node` target (hello) on CPU 0, the wire engine
// on CPU 1, two warm-up runs, then `perf record -C 1` samples CPU 1 for 3 s of a 5 s run and the samples are summed by
// object (the kernel, Node's binary, the JavaScript V8 compiled, libc, the vDSO's clock) and by symbol. Needs perf
// (Debian's linux-perf) and root or perf_event_paranoid <= 0; V8 leaves its isolate-*-v8.log files (ignored by git) in
// the working directory and Node a /tmp/perf-PID.map; after `npm run build`:
//   node --perf-basic-prof scripts/measure/wire-profile.mjs [connections=3000] [symbols=20]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pinProcessGroups } from '../../packages/core/dist/bundle/index.js';
import { builtinEngines } from '../../packages/engines/dist/bundle/index.js';
import { builtinTargets } from '../../packages/targets/dist/bundle/index.js';
import { builtinScenarios } from '../../packages/runner/dist/project/builtin-scenarios.js';

const connections = Number(process.argv[2] ?? 3000);
const symbols = Number(process.argv[3] ?? 20);
const target = builtinTargets.find((t) => t.name === 'node');
const scenario = builtinScenarios().find((s) => s.name === 'hello');
const wire = builtinEngines.find((e) => e.name === 'wire');
const running = await target.start(scenario, { services: {}, maxConcurrency: connections });
const dir = mkdtempSync(join(tmpdir(), 'wire-profile-'));
try {
  pinProcessGroups(running.processGroups, '0');
  const run = (durationSeconds) =>
    wire.run({
      url: running.url + scenario.request.path,
      request: scenario.request,
      expect: scenario.expect.body,
      shape: { connections, durationSeconds, keepAlive: true, timeoutSeconds: 10 },
      cpus: '1',
    });
  await run(1);
  await run(1);
  const data = join(dir, 'perf.data');
  const measured = run(5);
  // the connections are up and the run steady after a second
  await sleep(1000);
  const perf = spawn('perf', ['record', '-C', '1', '-g', '-o', data, '--', 'sleep', '3'], { stdio: 'ignore' });
  await new Promise((resolve) => perf.once('exit', resolve));
  const m = await measured;
  console.log(`wire, -c ${connections}: ${m.requests} answers in ${m.durationSeconds} s; CPU 1 sampled for 3 s of it`);
  const report = (...how) =>
    spawnSync('perf', ['report', '-i', data, '--no-children', '-g', 'none', ...how], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter((line) => /^\s+\d/.test(line));
  console.log('\nby object:');
  for (const line of report('--sort', 'dso')) console.log(line);
  console.log(`\nthe ${symbols} busiest symbols:`);
  for (const line of report('--sort', 'dso,sym').slice(0, symbols)) console.log(line);
} finally {
  rmSync(dir, { recursive: true, force: true });
  await running.stop();
}
