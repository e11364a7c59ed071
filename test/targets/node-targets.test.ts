import { describe, expect, it } from 'vitest';
import { builtinScenarios } from '@bench/runner';
import { builtinTargets } from '@bench/targets';
import { verifyTarget } from '@bench/runner';
import { leftoverServers, serverProcesses } from '../support/processes.js';

// Every Node target serves every scenario that needs no backend, byte for byte, and stops clean.
const scenarios = builtinScenarios().filter((s) => s.services.length === 0);
const nodeTargets = builtinTargets.filter((t) => t.language === 'node' && !t.name.includes('pool'));

describe.each(nodeTargets.map((t) => [t.name, t] as const))('target %s', (_name, target) => {
  it.each(scenarios.map((s) => [s.name, s] as const))('serves %s exactly', async (_scenario, scenario) => {
    const before = serverProcesses();
    const running = await target.start(scenario, { services: {}, workers: 2 });
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const verification = await verifyTarget(running.url, scenario);
      expect(verification.problems).toEqual([]);
    } finally {
      await running.stop();
    }
    expect(await leftoverServers(before)).toEqual([]);
  });
});

it('covers every built-in scenario that needs no backend', () => {
  expect(scenarios.length).toBeGreaterThan(0);
  expect(nodeTargets.length).toBeGreaterThan(0);
});
