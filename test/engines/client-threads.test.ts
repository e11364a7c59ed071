import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLatencyHistogram, summarizeLatency, type RunningTarget } from '@bench/core';
import { builtinEngines } from '@bench/engines';
import { builtinScenarios, resolveRunOptions, runBench } from '@bench/runner';
import { soakFixture } from '../support/soak-fixture.js';

const scenarios = builtinScenarios();
const hello = scenarios.find((s) => s.name === 'hello')!;
const twoThreads = { connections: 8, threads: 2, keepAlive: true, timeoutSeconds: 5, durationSeconds: 2 };
// the engines with client threads: those that run a closed loop, and those that hold an arrival rate
const threaded = builtinEngines.filter((e) => e.clientThreads);
const closedLoops = threaded.filter((e) => e.supports(twoThreads, hello.request, hello.expect.body).ok);
const openLoops = threaded.filter((e) => e.supports({ ...twoThreads, rate: 1001 }, hello.request, hello.expect.body).ok);
const served = async (running: RunningTarget) => Number(await (await fetch(`${running.url}/count`)).text());

type Measured = Awaited<ReturnType<(typeof builtinEngines)[number]['run']>> & { rawSamplesUs?: number[] };

/** The seconds add up to the run, and every sample of every thread is in the merged histogram: its percentiles are the pooled samples'. */
function expectMergedAsPooled(m: Measured) {
  expect((m.seconds ?? []).reduce((sum, s) => sum + s.requests, 0)).toBe(m.requests);
  const pooled = createLatencyHistogram();
  for (const us of m.rawSamplesUs ?? []) pooled.recordValue(us);
  expect(pooled.totalCount).toBe(m.requests);
  expect(m.latency).toEqual(summarizeLatency(pooled));
  pooled.destroy();
}

describe('client threads', () => {
  let running: RunningTarget;
  beforeAll(async () => {
    // test mode: each thread also returns its raw latencies (read by the workers when they start)
    process.env.BENCH_RAW_LATENCY_SAMPLES = '1';
    running = await soakFixture('counting').start(hello, { services: {}, maxConcurrency: 8 });
  });
  afterAll(async () => {
    delete process.env.BENCH_RAW_LATENCY_SAMPLES;
    await running?.stop();
  });

  const run = (engine: (typeof builtinEngines)[number], shape: { requests?: number; durationSeconds?: number }) =>
    engine.run({
      url: running.url + hello.request.path,
      request: hello.request,
      expect: hello.expect.body,
      shape: { connections: 8, threads: 2, keepAlive: true, timeoutSeconds: 5, ...shape },
    }) as Promise<Measured>;

  for (const engine of closedLoops)
    for (const bound of [{ requests: 3000 }, { durationSeconds: 2 }]) {
      it(`${engine.name}: count what the server answered, and merge percentiles equal to the pooled samples' (${JSON.stringify(bound)})`, async () => {
        const before = await served(running);
        const m = await run(engine, bound);
        const answered = (await served(running)) - before;
        if (bound.requests !== undefined) {
          expect([m.requests, answered]).toEqual([bound.requests, bound.requests]);
        } else {
          // a timed run stops with a request in flight on each connection: the server may answer those, the run does not count them
          expect(answered - m.requests).toBeGreaterThanOrEqual(0);
          expect(answered - m.requests).toBeLessThanOrEqual(8);
        }
        expect(m.failures).toMatchObject({ connect: 0, receive: 0, length: 0, exceptions: 0 });
        expectMergedAsPooled(m);
      }, 30_000);
    }

  it.each(openLoops.map((e) => [e.name, e] as const))(
    '%s: an open loop on 2 threads sends the run’s requests, counted as the server counted them, with merged percentiles equal to the pooled samples’',
    async (_name, engine) => {
      const before = await served(running);
      const m = (await engine.run({
        url: running.url + hello.request.path,
        request: hello.request,
        expect: hello.expect.body,
        shape: { connections: 8, threads: 2, rate: 1001, durationSeconds: 2, keepAlive: true, timeoutSeconds: 5 },
      })) as Measured;
      const answered = (await served(running)) - before;
      // the open loop answers what is in flight when the period ends, and counts as dropped what still waited for a
      // connection: every request due in it, one count on both sides. (A server that stops answering for a while leaves
      // many: beside idle-class work, this fixture once answered nothing for 1.46 s with both threads' loops on time.)
      const dropped = m.droppedRequests!;
      expect(m.requests).toBeGreaterThan(0);
      expect({ requests: m.requests, dropped, answered, failures: m.failures, samples: m.errorSamples }).toMatchObject({
        requests: 2002 - dropped,
        answered: 2002 - dropped,
      });
      expect(m.rate).toEqual({ target: 1001, achieved: (2002 - dropped) / 2 });
      expect(m.failures).toMatchObject({ connect: 0, receive: 0, length: 0, exceptions: 0 });
      expectMergedAsPooled(m);
      expect(m.latencyUncorrected?.p50).toBeGreaterThan(0);
      expect(m).not.toHaveProperty('uncorrectedHistogram');
    },
    30_000,
  );
});

describe('--client-threads 2 in a run', () => {
  it('counts as many requests as the server answered in the measured run', async () => {
    const pidFile = path.join(os.tmpdir(), `benchtest-counting-${process.pid}.pid`);
    const countFile = path.join(os.tmpdir(), `benchtest-counting-${process.pid}.count`);
    const options = resolveRunOptions(
      { scenarios: ['hello'] },
      { concurrency: [6], requests: 4000, warmupSeconds: 0, timeoutSeconds: 5, clientThreads: 2 },
    );
    const target = soakFixture('counting', { PID_FILE: pidFile, COUNT_FILE: countFile });
    const doc = await runBench(
      { ...options, targets: ['counting'] },
      {
        targets: [target],
        scenarios,
        reporters: [],
        // the server counts from zero as the measured run starts (readiness and verification requests are not the run's):
        // the load waits (this handler holds the run's thread) until the server says it handled the signal
        onEvent: (event) => {
          if (event.type !== 'cell-start' || event.phase !== 'measure') return;
          rmSync(countFile, { force: true });
          process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGHUP');
          const pause = new Int32Array(new SharedArrayBuffer(4));
          for (let waited = 0; !existsSync(countFile) && waited < 5000; waited += 5) Atomics.wait(pause, 0, 0, 5);
        },
      },
    );
    const count = Number(readFileSync(countFile, 'utf8'));
    rmSync(pidFile, { force: true });
    rmSync(countFile, { force: true });
    expect(doc.results[0]).toMatchObject({ status: 'ok', requests: 4000, failed: 0 });
    expect(count).toBe(4000);
  }, 30_000);
});

describe('--client-threads with an engine that has no threads', () => {
  it('is refused before anything starts', async () => {
    const options = resolveRunOptions({ scenarios: ['hello'] }, { concurrency: [2], durationSeconds: 1, clientThreads: 2, engine: 'wrk' });
    await expect(
      runBench({ ...options, targets: ['counting'] }, { targets: [soakFixture('counting')], scenarios, reporters: [] }),
    ).rejects.toMatchObject({ code: 'BENCH_ERR_ENGINE_UNSUPPORTED' });
  });
});
