// Where an in-process engine's CPU goes in a selfbench: `bench selfbench`'s own procedure on one stack (wrk and wire
// unless ENGINES names others), with each run of an in-process engine (its warm-up runs and its measured run) split by
// the threads of bench's process (/proc/self/task/*/schedstat: the engine's thread, V8's helper threads, the main
// thread), so a measured run that met a new thread, or compiled what its warm-up did not, shows. After `npm run build`:
//   node scripts/measure/selfbench-threads.mjs [target=node] [scenario=hello] [connections=3000] [rounds=3]
// CASES=nginx-static/file,node/hello runs those stacks in turn instead, as `bench selfbench` does.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinEngines } from '../../packages/engines/dist/bundle/index.js';
import { builtinTargets } from '../../packages/targets/dist/bundle/index.js';
import { renderSelfbench } from '../../packages/reporters/dist/bundle/index.js';
import { builtinScenarios } from '../../packages/runner/dist/project/builtin-scenarios.js';
import { selfbench } from '../../packages/runner/dist/selfbench/selfbench.js';

const [target = 'node', scenario = 'hello', connections = '3000', rounds = '3'] = process.argv.slice(2);
const engines = (process.env.ENGINES ?? 'wrk,wire').split(',').map((name) => builtinEngines.find((e) => e.name === name));
const threadMs = () =>
  Object.fromEntries(
    readdirSync('/proc/self/task').map((tid) => [
      tid,
      Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6,
    ]),
  );
for (const engine of engines.filter((e) => e.processNames?.length === 0)) {
  const run = engine.run.bind(engine);
  engine.run = async (plan) => {
    const before = threadMs();
    const m = await run(plan);
    const spent = Object.entries(threadMs())
      .map(([tid, ms]) => ms - (before[tid] ?? 0))
      .filter((ms) => ms >= 1)
      .sort((a, b) => b - a);
    const [busiest = 0, ...others] = spent;
    const rest = others.reduce((a, b) => a + b, 0);
    console.log(
      `${engine.name} ${plan.shape.durationSeconds} s: ${m.requests} answers; its thread ${busiest.toFixed(0)} ms, the ${others.length} other threads ${rest.toFixed(0)} ms (${others.map((ms) => ms.toFixed(0)).join(', ')})`,
    );
    return m;
  };
}
const rows = await selfbench({
  connections: connections.split(',').map(Number),
  seconds: 5,
  rounds: Number(rounds),
  cpus: { server: '0', client: '1' },
  cases: (process.env.CASES ?? `${target}/${scenario}`)
    .split(',')
    .map((stack) => stack.split('/'))
    .map(([t, s]) => [builtinTargets.find((x) => x.name === t), builtinScenarios().find((x) => x.name === s)]),
  engines,
  threads: [1],
});
console.log(renderSelfbench(rows, `-c ${connections}, ${rounds} rounds of 5 s`));
