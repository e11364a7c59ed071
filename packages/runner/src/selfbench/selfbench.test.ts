import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadEngine, LoadMeasurement, LoadPlan, TargetPlugin } from '@bench/core';
import { builtinScenarios } from '../project/builtin-scenarios.js';
import { selfbench } from './selfbench.js';

// A server answering as the hello scenario asks, and a target that is only its URL: selfbench verifies it before load.
let server: http.Server;
let url = '';
beforeAll(async () => {
  server = http.createServer((_, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('Hello World'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const target = {
  name: 'fake',
  available: async () => ({ ok: true }),
  start: async () => ({ url, processGroups: [], settings: {}, crashed: new Promise<string>(() => {}), stop: async () => {} }),
} as unknown as TargetPlugin;

/** An engine inside bench's process (no process of its own) that notes the length of every run it is asked for. */
function inProcessEngine(runs: number[]): LoadEngine {
  return {
    name: 'fake-in-process',
    processNames: [],
    supports: () => ({ ok: true }),
    available: async () => ({ ok: true }),
    run: async (plan: LoadPlan) => {
      runs.push(plan.shape.durationSeconds!);
      return { requests: 1000, durationSeconds: plan.shape.durationSeconds! } as LoadMeasurement;
    },
  } as unknown as LoadEngine;
}

describe('selfbench', () => {
  it('measures an in-process engine warm: two warm-up runs of 1 s on its threads before each measured run', async () => {
    const runs: number[] = [];
    const hello = builtinScenarios().find((s) => s.name === 'hello')!;
    const rows = await selfbench({ connections: [50], seconds: 3, rounds: 2, cases: [[target, hello]], engines: [inProcessEngine(runs)] });
    expect(runs).toEqual([1, 1, 3, 1, 1, 3]);
    expect(rows.map((r) => [r.round, r.bench.requests])).toEqual([
      [1, 1000],
      [2, 1000],
    ]);
  }, 30_000);

  it('runs an engine that also runs closed at each rate beside its closed loop, and an open-only one at each rate', async () => {
    const hello = builtinScenarios().find((s) => s.name === 'hello')!;
    const asked: Array<[string, number | undefined]> = [];
    const engine = (name: string, closedToo: boolean): LoadEngine =>
      ({
        name,
        processNames: ['fake'],
        supports: (shape: LoadPlan['shape']) => ({ ok: closedToo || shape.rate !== undefined }),
        available: async () => ({ ok: true }),
        run: async (plan: LoadPlan) => {
          asked.push([name, plan.shape.rate]);
          return { requests: 1000, durationSeconds: plan.shape.durationSeconds! } as LoadMeasurement;
        },
      }) as unknown as LoadEngine;
    const rows = await selfbench({
      connections: [50],
      seconds: 1,
      rounds: 1,
      rates: [20_000, 30_000],
      cases: [[target, hello]],
      engines: [engine('both', true), engine('open-only', false)],
    });
    expect(rows.map((r) => [r.engine, r.rate])).toEqual([
      ['both', undefined],
      ['both', 20_000],
      ['both', 30_000],
      ['open-only', 20_000],
      ['open-only', 30_000],
    ]);
    expect(asked).toEqual(rows.map((r) => [r.engine, r.rate]));
    // with no rates asked, the closed loop alone, and the open-only engine at the default rate
    asked.length = 0;
    await selfbench({
      connections: [50],
      seconds: 1,
      rounds: 1,
      cases: [[target, hello]],
      engines: [engine('both', true), engine('open-only', false)],
    });
    expect(asked).toEqual([
      ['both', undefined],
      ['open-only', 2000],
    ]);
  }, 30_000);
});
