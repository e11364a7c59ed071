import {
  errors,
  type LoadEngine,
  type Scenario,
  type SelfbenchRow,
  type SelfbenchSide,
  type TargetPlugin,
  pinProcessGroups,
} from '@bench/core';
import { verifyTarget } from '../run/verify.js';
import { builtinEngines, runBareTool } from '@bench/engines';
import { setTimeout as sleep } from 'node:timers/promises';

const processCpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};

// as `bench run`'s default --warmup, twice: V8 compiles what runs once a connection or once a run (the connects, the
// run's summary) only in a thread's second run or later (docs/measurements.md, "The wire engine, a warm thread")
const IN_PROCESS_WARMUP_SECONDS = 1;
const IN_PROCESS_WARMUP_RUNS = 2;
const QUIET_WINDOW_MS = 200;
const QUIET_SHARE = 0.05;

/**
 * Waits (2 s at most) until bench's process spends under 5% of a core: an in-process engine is charged all the process
 * spends over its run, and the engine before it winds down after its own (docs/measurements.md, "The wire
 * engine, counted as the kernel counts it").
 */
async function quiet(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const before = process.cpuUsage();
    await sleep(QUIET_WINDOW_MS);
    if (processCpuSeconds(before) < (QUIET_WINDOW_MS / 1000) * QUIET_SHARE) return;
  }
}

/** The open loop's arrival rate when none is given: well below what one thread of it sends on one shared core here. */
export const DEFAULT_OPEN_LOOP_RATE = 2000;

/**
 * The engines selfbench measures unless told: each that has a bare tool to measure bench against, and each of bench's
 * own in-process closed loops (measured beside the bare tools: wrk is the yardstick).
 */
export const defaultSelfbenchEngines = () =>
  builtinEngines.filter(
    (e) =>
      e.bareTool ||
      (e.clientThreads &&
        e.supports(
          { connections: 1, durationSeconds: 1, keepAlive: true, timeoutSeconds: 1 },
          { method: 'GET', path: '/', headers: {} },
          { kind: 'any' },
        ).ok),
  );

export interface SelfbenchOptions {
  /** The levels of -c, each measured on every stack. */
  readonly connections: readonly number[];
  readonly seconds: number;
  readonly rounds: number;
  readonly cpus?: { readonly server?: string; readonly client?: string };
  /** Which stacks to run on: [target, scenario] pairs. */
  readonly cases: ReadonlyArray<readonly [TargetPlugin, Scenario]>;
  readonly engines: readonly LoadEngine[];
  /** Client thread counts to measure an engine that has them (--client-threads); 1 and 2 by default. */
  readonly threads?: readonly number[];
  /**
   * Arrival rates, requests per second: an engine that runs only at a rate (the open-loop engine) runs at each (at
   * DEFAULT_OPEN_LOOP_RATE when absent); one that also runs closed (wire) runs at each beside its closed loop.
   */
  readonly rates?: readonly number[];
  readonly onProgress?: (line: string) => void;
}

/**
 * bench through each engine against the same tool run bare, on the same running server, A and B
 * interleaved (the order alternating by round): what bench's runner costs, and each engine's
 * ceiling here in rps per second of client CPU.
 */
export async function selfbench(o: SelfbenchOptions): Promise<SelfbenchRow[]> {
  const rows: SelfbenchRow[] = [];
  const engines = o.engines;
  const most = Math.max(...o.connections);
  for (const [target, scenario] of o.cases) {
    const availability = await target.available();
    if (!availability.ok) throw errors.targetUnavailable(target.name, availability.reason ?? 'unknown reason');
    const running = await target.start(scenario, { services: {}, maxConcurrency: most });
    try {
      const verification = await verifyTarget(running.url, scenario);
      if (!verification.ok) throw errors.targetStart(target.name, scenario.name, verification.problems.join('; '));
      if (o.cpus?.server) pinProcessGroups(running.processGroups, o.cpus.server);
      const url = running.url + scenario.request.path;
      // the rates an engine runs at, `undefined` for its closed loop: an open loop only at rates, wire closed and at each
      const runs = (engine: LoadEngine, rate?: number) =>
        engine.supports(
          { connections: most, durationSeconds: o.seconds, keepAlive: true, timeoutSeconds: 10, ...(rate !== undefined ? { rate } : {}) },
          scenario.request,
          scenario.expect.body,
        ).ok;
      const ratesOf = (engine: LoadEngine): Array<number | undefined> =>
        runs(engine) ? [undefined, ...(o.rates ?? []).filter((rate) => runs(engine, rate))] : [...(o.rates ?? [DEFAULT_OPEN_LOOP_RATE])];
      const throughBench = async (engine: LoadEngine, connections: number, threads: number, rate?: number): Promise<SelfbenchSide> => {
        const run = (durationSeconds: number) =>
          engine.run({
            url,
            request: scenario.request,
            expect: scenario.expect.body,
            shape: {
              connections,
              durationSeconds,
              keepAlive: true,
              timeoutSeconds: 10,
              ...(rate !== undefined ? { rate } : {}),
              ...(threads > 1 ? { threads } : {}),
            },
            ...(o.cpus?.client ? { cpus: o.cpus.client } : {}),
          });
        // an engine inside bench's process costs what the process spent over its whole run, as the kernel counted it,
        // measured warm: after warm-up runs on the same threads (its code compiled, its threads started), the process
        // quiet again
        const inProcess = engine.processNames?.length === 0;
        if (inProcess) {
          for (let i = 0; i < IN_PROCESS_WARMUP_RUNS; i++) await run(IN_PROCESS_WARMUP_SECONDS);
          await quiet();
        }
        const before = process.cpuUsage();
        const m = await run(o.seconds);
        return {
          rps: m.requests / m.durationSeconds,
          requests: m.requests,
          cpuSeconds: inProcess ? processCpuSeconds(before) : ((m.client?.cpuPercent ?? 0) / 100) * m.durationSeconds,
          ...(m.client ? { rssBytes: m.client.rssBytes } : {}),
          ...(m.eventLoopDelay ? { eventLoopP99Ms: m.eventLoopDelay.p99 } : {}),
          ...(m.lateness ? { lateMs: { p50: m.lateness.p50, p99: m.lateness.p99 } } : {}),
        };
      };
      const bare = async (engine: LoadEngine, connections: number, threads: number): Promise<SelfbenchSide> =>
        runBareTool(engine, url, connections, o.seconds, o.cpus?.client, threads);
      // a warm-up, so the first measurement does not meet a cold server: the first engine's bare tool, else through bench
      const warmer = engines.find((e) => e.bareTool);
      await (warmer ? runBareTool(warmer, url, Math.min(...o.connections), 2, o.cpus?.client) : undefined)?.catch(() => undefined);
      const sides = engines.flatMap((e) =>
        (e.clientThreads ? (o.threads ?? [1, 2]) : [1]).flatMap((n) => ratesOf(e).map((rate) => [e, n, rate] as const)),
      );
      for (const connections of o.connections)
        for (let round = 1; round <= o.rounds; round++) {
          // the engines' order alternates by round too: none always runs last, after the others' connections
          for (const [engine, threads, rate] of round % 2 === 1 ? sides : [...sides].reverse()) {
            const label = `${threads > 1 ? ` ${threads} threads` : ''}${rate !== undefined ? ` at ${rate} rps` : ''}`;
            o.onProgress?.(`${target.name}/${scenario.name} c=${connections} ${engine.name}${label} round ${round}/${o.rounds}`);
            const row = { target: target.name, scenario: scenario.name, engine: engine.name, connections, threads, round };
            if (!engine.bareTool || rate !== undefined) {
              rows.push({
                ...row,
                first: 'bench',
                bench: await throughBench(engine, connections, threads, rate),
                ...(rate !== undefined ? { rate } : {}),
              });
              continue;
            }
            const first = round % 2 === 1 ? 'bench' : 'bare';
            const a = first === 'bench' ? await throughBench(engine, connections, threads) : await bare(engine, connections, threads);
            const b = first === 'bench' ? await bare(engine, connections, threads) : await throughBench(engine, connections, threads);
            rows.push({ ...row, first, bench: first === 'bench' ? a : b, bare: first === 'bench' ? b : a });
          }
        }
    } finally {
      await running.stop();
    }
  }
  return rows;
}
