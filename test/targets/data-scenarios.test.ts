import { afterAll, describe, expect, it } from 'vitest';
import { builtinScenarios } from '@bench/runner';
import { builtinTargets } from '@bench/targets';
import { createServiceManager, serviceDefinitions, verifyTarget } from '@bench/runner';
import { leftoverServers, serverProcesses } from '../support/processes.js';

// Every data scenario on every Node target, against real Redis, memcached and MariaDB. TechEmpower's are the verify
// matrix's (test/targets/verify-matrix.test.ts), their database counts checked there (cached-queries reads a cache).
const dataScenarios = builtinScenarios().filter((s) => s.services.length > 0 && !s.tfb);
const nodeTargets = builtinTargets.filter((t) => t.language === 'node');
const before = serverProcesses();
const services = createServiceManager({});

afterAll(async () => {
  await services.stopAll();
  expect(await leftoverServers(before)).toEqual([]);
});

describe.each(nodeTargets.map((t) => [t.name, t] as const))('%s', (_name, target) => {
  it.each(dataScenarios.map((s) => [s.name, s] as const))('answers %s from the real backend', async (_scenario, scenario) => {
    const endpoints = await services.endpointsFor(scenario);
    const running = await target.start(scenario, { services: endpoints, workers: 2, poolSize: 3 });
    try {
      const counterBefore = await services.readCounters(scenario);
      const verification = await verifyTarget(running.url, scenario);
      expect(verification.problems).toEqual([]);
      const counterAfter = await services.readCounters(scenario);
      for (const [service, reading] of Object.entries(counterAfter)) {
        expect(reading.value, `${service} ${reading.counter}`).toBeGreaterThan(counterBefore[service]?.value ?? Infinity);
      }
    } finally {
      await running.stop();
    }
  });
});

it('covers every built-in scenario that needs a backend, each backend one bench can start', () => {
  expect(dataScenarios.length).toBeGreaterThan(0);
  for (const scenario of dataScenarios) for (const service of scenario.services) expect(Object.keys(serviceDefinitions)).toContain(service);
});
