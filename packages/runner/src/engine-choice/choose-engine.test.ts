import { describe, expect, it } from 'vitest';
import { buildWorkload, requestScenario, workloadScenario, type Scenario } from '@bench/core';
import { builtinEngines } from '@bench/engines';
import { resolveRunOptions } from '../options/resolve.js';
import { chooseEngine } from './choose-engine.js';

const hello = requestScenario({ name: 'get', path: '/', method: 'GET', headers: {}, expect: {} });
// a mix of two requests: a workload wire cannot send
const mixSpec = {
  name: 'mix',
  mix: [
    { name: 'a', weight: 1, path: '/a' },
    { name: 'b', weight: 1, path: '/b' },
  ],
};
const mix: Scenario = workloadScenario(
  mixSpec,
  buildWorkload(mixSpec, {
    entries: new Map(),
    dir: process.cwd(),
    fail: (detail) => {
      throw new Error(detail);
    },
  }),
);

describe('the engine a run uses', () => {
  it('--rate runs on wire, the cheapest open loop, and says why', async () => {
    const options = resolveRunOptions({ scenarios: ['get'] }, { rate: 1000, concurrency: [10] });
    const chosen = await chooseEngine(options, builtinEngines, [hello]);
    expect(chosen.engine.name).toBe('wire');
    expect(chosen.because).toBe('--rate runs on wire, the first of wire, open-loop that can drive this run');
  });

  it('--rate keeps the open loop for a workload wire cannot send, and names wire’s reason', async () => {
    const options = resolveRunOptions({ scenarios: ['mix'] }, { rate: 1000, concurrency: [10] });
    const chosen = await chooseEngine(options, builtinEngines, [mix]);
    expect(chosen.engine.name).toBe('open-loop');
    expect(chosen.because).toMatch(/^--rate runs on open-loop: wire cannot \(scenario "mix" needs mixes, which wire does not run; /);
  });

  it('an engine named is the engine used, with no reason to give', async () => {
    const options = resolveRunOptions({ scenarios: ['get'] }, { rate: 1000, concurrency: [10], engine: 'open-loop' });
    const chosen = await chooseEngine(options, builtinEngines, [hello]);
    expect([chosen.engine.name, chosen.because]).toEqual(['open-loop', undefined]);
  });
});
