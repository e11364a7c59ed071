import {
  describeMachine,
  errors,
  expectedLength,
  isBenchError,
  SCHEMA_VERSION,
  type CellResult,
  type HttpAnswer,
  type LoadEngine,
  type LoadMeasurement,
  type LoadPlan,
  type LoadProgress,
  type LoadShape,
  type Reporter,
  type ResourceSample,
  type RunDocument,
  type RunningTarget,
  type Scenario,
  type SecondPoint,
  type TargetPlugin,
} from '@bench/core';
import { cellSeries, type SampledRun } from './measure/cell-series.js';
import { failedCell, measuredCell, type CellContext } from './cell-result.js';
import { evaluateThresholds, type ThresholdsSpec } from './config/thresholds.js';
import { builtinEngines, findEngine } from '@bench/engines';
import type { RunOptions } from './options/declarations.js';
import { makePlan, type Plan, type PlannedPair } from './plan.js';
import { callReporters, endReporters } from './reporters/call-reporters.js';
import { sampleProcessGroups, pinProcessGroups, CLIENT_SATURATED_PERCENT, EVENT_LOOP_LAG_MS } from '@bench/core';
import { releaseMemory } from './measure/release-memory.js';
import { warmInOneRun, warmUntilSteady } from './measure/steady-warmup.js';
import { detectStall } from './measure/stall.js';
import { watchMachineCpu } from './measure/machine-cpu.js';
import { explainTimeouts } from './measure/timeout-bound.js';
import { withSoak } from './measure/soak.js';
import { coolDownReading } from './measure/cool-down.js';
import { crashedCell } from './measure/crashed-cell.js';
import { clientThreadsOf } from './options/client-threads.js';
import { noServices, type CounterReading, type ServiceManager } from '@bench/services';
import { verifyTarget } from './verify.js';
import { targetStartOptions } from './start-options.js';
import { TOOL_VERSION } from './version.js';
import { randomSeed, seededRandom, shuffled } from '@bench/core';
import { assessRounds, fewestRounds, type StopReason } from './compare/round-decision.js';
import { parseTargetPair } from './compare/paired-compare.js';

/** What the runner tells whoever drives it (the CLI draws progress from these); it never prints. */
export type RunEvent =
  | { readonly type: 'plan'; readonly plan: Plan; readonly cells: number; readonly engine: string; readonly options: RunOptions }
  | { readonly type: 'target-starting'; readonly scenario: string; readonly target: string }
  | { readonly type: 'target-verifying'; readonly scenario: string; readonly target: string }
  | {
      readonly type: 'cell-start';
      readonly index: number;
      readonly total: number;
      readonly scenario: string;
      readonly target: string;
      readonly concurrency: number;
      readonly repeat: number;
      readonly phase: 'warmup' | 'measure';
    }
  | { readonly type: 'cell-progress'; readonly progress: LoadProgress }
  | { readonly type: 'cell-end'; readonly result: CellResult }
  /** A step of work that is not a cell (a suite's client timings). */
  | { readonly type: 'step'; readonly text: string }
  /** A round (every cell once) ended; with --repeat auto, where each comparison stands. */
  | { readonly type: 'round-end'; readonly round: number; readonly decided: boolean; readonly lines: readonly string[] }
  /** The run stopped adding rounds: how many ran, and why. */
  | { readonly type: 'rounds-end'; readonly rounds: number; readonly stoppedBecause: StopReason; readonly lines: readonly string[] };

export interface RunContext {
  /** Targets the run may use (built-in and the config's own). */
  readonly targets: readonly TargetPlugin[];
  /** Scenarios the run may use. */
  readonly scenarios: readonly Scenario[];
  /** Load engines to pick `options.engine` from; bench's own when absent. */
  readonly engines?: readonly LoadEngine[];
  readonly reporters: readonly Reporter[];
  readonly services?: ServiceManager;
  /** Limits to check every cell against; a broken one is in the document (the CLI exits 1). */
  readonly thresholds?: ThresholdsSpec;
  readonly onEvent?: (event: RunEvent) => void;
  /** Aborting stops the cell in progress, keeps every finished one, and ends the run. */
  readonly signal?: AbortSignal;
  /** The command line, recorded in the document. */
  readonly command?: string;
}

export function newRunDocument(command: string, options: RunOptions): RunDocument {
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'bench', version: TOOL_VERSION },
    startedAt: new Date().toISOString(),
    complete: false,
    machine: describeMachine(),
    command,
    options: { ...options },
    results: [],
  };
}

function shapeOf(options: RunOptions, connections: number, bound: Pick<LoadShape, 'durationSeconds' | 'requests'>): LoadShape {
  return {
    connections,
    ...bound,
    ...(options.rate !== undefined ? { rate: options.rate } : {}),
    keepAlive: options.keepAlive,
    ...(options.requestsPerConnection !== undefined ? { requestsPerConnection: options.requestsPerConnection } : {}),
    timeoutSeconds: options.timeoutSeconds,
    ...(options.generators !== undefined ? { generators: options.generators } : {}),
    ...(clientThreadsOf(options) > 1 ? { threads: clientThreadsOf(options) } : {}),
  };
}

/** The engine a run uses when none is named: the open loop for --rate, k6 to split over generators, else autocannon. */
export const defaultEngineName = (options: Pick<RunOptions, 'engine' | 'rate' | 'generators'>): string =>
  options.engine ?? ((options.generators ?? 1) > 1 ? 'k6' : options.rate !== undefined ? 'open-loop' : 'autocannon');

/** The engine the options name, checked before anything starts: installed, and able to drive this run. */
async function chooseEngine(
  options: RunOptions,
  engines: readonly LoadEngine[],
  scenarios: readonly Scenario[],
): Promise<{ engine: LoadEngine; version: string }> {
  const engine = findEngine(defaultEngineName(options), engines);
  if ((options.generators ?? 1) > 1 && !engine.splitsLoad)
    throw errors.engineUnsupported(engine.name, 'only k6 splits a run over generators: use --engine k6 with --generators');
  if ((options.clientThreads ?? 1) > 1 && !engine.clientThreads)
    throw errors.engineUnsupported(
      engine.name,
      '--client-threads spreads the connections of the in-process engines (autocannon, open-loop); drop it for this engine',
    );
  const availability = await engine.available();
  if (!availability.ok) throw errors.engineUnavailable(engine.name, availability.reason ?? 'unknown reason');
  for (const scenario of scenarios) {
    const bound = options.requests !== undefined ? { requests: options.requests } : { durationSeconds: options.durationSeconds ?? 1 };
    const support = engine.supports(shapeOf(options, Math.max(...options.concurrency), bound), scenario.request, scenario.expect.body);
    if (!support.ok) throw errors.engineUnsupported(engine.name, support.reason);
  }
  return { engine, version: availability.version ?? 'unknown' };
}

/** Plans, runs every cell, and reports: the whole of `bench run` without the terminal. */
export async function runCells(options: RunOptions, context: RunContext): Promise<RunDocument> {
  const services = context.services ?? noServices;
  const emit = context.onEvent ?? (() => {});
  const signal = context.signal;
  const plan = await makePlan(options, context.targets, context.scenarios);
  const { engine, version } = await chooseEngine(options, context.engines ?? builtinEngines, [
    ...new Set(plan.pairs.map((p) => p.scenario)),
  ]);
  const comparisons = (options.compare ?? []).map((text) => parseTargetPair('--compare', text));
  const planned = new Set(plan.pairs.map((p) => p.target.name));
  for (const name of comparisons.flatMap((c) => [c.base, c.head]))
    if (!planned.has(name)) throw errors.usage(`--compare names "${name}", which is not a target of this run (${[...planned].join(', ')})`);
  if (options.repeat === 'auto' && options.maxRounds < fewestRounds(comparisons))
    throw errors.usage(
      `--max-rounds ${options.maxRounds} is fewer than the ${fewestRounds(comparisons)} rounds a verdict needs: raise it to ${fewestRounds(comparisons)} or more`,
    );
  await services.prepare(plan.pairs.map((p) => p.scenario));
  // the seed of every round's order, recorded so the order can be replayed (--seed)
  const seed = options.seed ?? randomSeed();
  const doc = newRunDocument(context.command ?? '', { ...options, seed });
  const auto = options.repeat === 'auto';
  const repeats = options.repeat === 'auto' ? options.maxRounds : options.repeat;
  const total = plan.pairs.length * plan.concurrency.length * repeats;
  emit({ type: 'plan', plan, cells: total, engine: engine.name, options });
  const maxConcurrency = Math.max(...options.concurrency);

  let index = 0;
  let completed = 0;
  let stoppedBecause: StopReason = auto ? 'max-rounds' : 'fixed';
  let lines: readonly string[] = [];
  let running: RunningTarget | undefined;
  let failure: unknown;

  const record = async (result: CellResult) => {
    doc.results.push(result);
    emit({ type: 'cell-end', result });
    await callReporters(context.reporters, 'onResult', doc, result);
  };

  try {
    await callReporters(context.reporters, 'onRunStart', doc);
    // Once a stack has failed (to start, to verify, or mid-run), its remaining cells are recorded as failed.
    const problems = new Map<PlannedPair, string>();
    // Rounds interleave the targets (each cell once per round, in an order drawn afresh from the seed), so a
    // drift of the machine over the run falls on every target alike and no target always runs first (Abedi and
    // Brecht's randomized multiple interleaved trials); each round starts a stack afresh (a new process, a new
    // warm-up), so rounds are independent samples, and a comparison pairs base and head within each round.
    const random = seededRandom(seed);
    const startedAt = Date.now();
    for (let repeat = 1; repeat <= repeats && !signal?.aborted; repeat++) {
      for (const pair of shuffled(plan.pairs, random)) {
        if (signal?.aborted) break;
        const { scenario, target } = pair;
        const contextFor = (concurrency: number, url = '', settings = {}): CellContext => ({
          scenario,
          target: target.name,
          concurrency,
          repeat,
          options,
          url,
          settings,
          engine: { name: engine.name, version },
          startedAt: new Date().toISOString(),
        });
        if (!problems.has(pair)) {
          emit({ type: 'target-starting', scenario: scenario.name, target: target.name });
          try {
            running = await target.start(
              scenario,
              targetStartOptions({ ...options, maxConcurrency }, await services.endpointsFor(scenario)),
            );
          } catch (error) {
            // Input problems (a port in use, a missing service binary, an app server that cannot start) end the run; a reference stack that fails is a failed cell.
            if (isBenchError(error) && error.exitCode === 2) throw error;
            problems.set(pair, error instanceof Error ? error.message : String(error));
          }
        }
        if (signal?.aborted) break; // interrupted while the stack was starting: nothing was measured
        let answer: HttpAnswer | undefined;
        if (running && !problems.has(pair)) {
          emit({ type: 'target-verifying', scenario: scenario.name, target: target.name });
          const verification = await verifyTarget(running.url, scenario);
          if (!verification.ok) problems.set(pair, `verification failed: ${verification.problems.join('; ')}`);
          answer = verification.answer;
        }
        for (const concurrency of plan.concurrency) {
          if (signal?.aborted) break;
          index++;
          const cell = contextFor(concurrency, running?.url, running?.settings);
          const problem = problems.get(pair);
          if (problem || !running) {
            await record(failedCell(cell, problem ?? 'target did not start'));
            continue;
          }
          const result = await measureCell(cell, engine, running, services, answer, { index, total }, emit, signal);
          if (signal?.aborted) break; // an interrupted cell is not a finished result
          if (result.status === 'failed') problems.set(pair, result.error ?? 'failed');
          await record(result);
        }
        await running?.stop();
        running = undefined;
      }
      if (signal?.aborted) break;
      completed = repeat;
      if (!auto) continue;
      const assessment = assessRounds(doc, comparisons, options.noisePercent);
      emit({ type: 'round-end', round: repeat, decided: assessment.decided, lines: assessment.lines });
      lines = assessment.lines;
      if (assessment.decided && repeat >= fewestRounds(comparisons)) {
        stoppedBecause = 'decided';
        break;
      }
      // tachometer's time cap, once the fewest rounds a verdict needs have run: no round starts that would, at the
      // pace so far, end after --max-time
      const elapsed = Date.now() - startedAt;
      const late = options.maxTimeSeconds !== undefined && elapsed + elapsed / repeat > options.maxTimeSeconds * 1000;
      if (late && repeat >= fewestRounds(comparisons) && repeat < repeats) {
        stoppedBecause = 'max-time';
        break;
      }
    }
  } catch (error) {
    failure = error;
  } finally {
    await running?.stop().catch(() => {});
    await services.stopAll().catch((error: unknown) => (failure ??= error));
  }
  if (signal?.aborted) stoppedBecause = 'interrupted';
  else if (failure !== undefined) stoppedBecause = 'failed';
  doc.rounds = { requested: options.repeat, completed, stoppedBecause, seed, lines: [...lines] };
  emit({ type: 'rounds-end', rounds: completed, stoppedBecause, lines });
  // Reports read the results in the plan's order, round by round, whatever order the cells ran in (each cell's
  // startedAt and the recorded seed keep that order); the sort is stable, so concurrency levels stay in order.
  const rank = new Map(plan.pairs.map((p, i) => [`${p.scenario.name}\u0000${p.target.name}`, i]));
  const rankOf = (r: CellResult) => rank.get(`${r.scenario}\u0000${r.target}`) ?? 0;
  doc.results.sort((a, b) => a.repeat - b.repeat || rankOf(a) - rankOf(b));
  doc.complete = failure === undefined && !signal?.aborted;
  doc.finishedAt = new Date().toISOString();
  if (context.thresholds) doc.thresholds = evaluateThresholds(context.thresholds, doc);
  const endFailure = await endReporters(context.reporters, doc);
  if (failure !== undefined) throw failure;
  if (signal?.aborted) throw errors.interrupted(String(signal.reason ?? 'signal'));
  if (endFailure !== undefined) throw endFailure;
  return doc;
}

async function measureCell(
  cell: CellContext,
  engine: LoadEngine,
  running: RunningTarget,
  services: ServiceManager,
  answer: HttpAnswer | undefined,
  position: { index: number; total: number },
  emit: (event: RunEvent) => void,
  signal?: AbortSignal,
): Promise<CellResult> {
  const { options, scenario } = cell;
  // The load stops when the user interrupts or the target dies, so no generator outlives its cell.
  const stopLoad = new AbortController();
  const forwardAbort = () => stopLoad.abort(signal?.reason);
  signal?.addEventListener('abort', forwardAbort, { once: true });
  const crashed = running.crashed.then((detail) => {
    stopLoad.abort('target crashed');
    return { crashed: detail, atNs: process.hrtime.bigint() };
  });
  // --cpus: the stack and its services on the server CPUs (processes they fork later inherit it), the generator on the client CPUs
  if (options.cpus?.server) pinProcessGroups([...running.processGroups, ...services.processGroups()], options.cpus.server);
  const plan = {
    url: running.url + scenario.request.path,
    ...(options.cpus?.client ? { cpus: options.cpus.client } : {}),
    request: scenario.request,
    expect: scenario.expect.body,
    onProgress: (progress: LoadProgress) => emit({ type: 'cell-progress', progress }),
    signal: stopLoad.signal,
  };
  const event = { ...position, scenario: scenario.name, target: cell.target, concurrency: cell.concurrency, repeat: cell.repeat };
  // when the target dies, what the load measured until it stopped comes along (the seconds before the crash)
  const untilCrash = async <T>(load: Promise<T>): Promise<T | (Awaited<typeof crashed> & { partial: T | undefined })> => {
    const outcome = await Promise.race([load.then((value) => ({ value })), crashed]);
    if ('crashed' in outcome) return { ...outcome, partial: await load.catch(() => undefined) };
    return outcome.value;
  };

  try {
    // a warm-up before every measured run: each level, each fresh start
    let warmup: SampledRun | undefined;
    let warmed: CellResult['warmup'];
    if (options.warmupSeconds > 0) {
      emit({ type: 'cell-start', ...event, phase: 'warmup' });
      const warmSampler = sampleProcessGroups({ server: running.processGroups });
      let died: string | undefined;
      const warmRun = async (seconds: number, extra: Partial<LoadPlan> = {}) => {
        const run = await untilCrash(
          engine.run({ ...plan, ...extra, shape: shapeOf(options, cell.concurrency, { durationSeconds: seconds }) }),
        );
        if ('crashed' in run) died = run.crashed;
        return 'crashed' in run || stopLoad.signal.aborted ? undefined : run;
      };
      const serverFrom = (startedAtNs: bigint) => warmSampler.perSecond(startedAtNs).server;
      // the cell's own load until throughput settles (pools grown to what it needs), --warmup-max at most: one run
      // watched second by second where the engine counts its progress, else one-second slices
      const warm =
        engine.countsProgress && options.warmupMaxSeconds > options.warmupSeconds
          ? await warmInOneRun(
              {
                run: (seconds, onProgress, stop) =>
                  warmRun(seconds, {
                    onProgress: (progress) => {
                      plan.onProgress(progress);
                      onProgress(progress);
                    },
                    signal: AbortSignal.any([stopLoad.signal, stop]),
                  }),
                serverFrom,
              },
              options.warmupSeconds,
              options.warmupMaxSeconds,
            )
          : await warmUntilSteady({ slice: (seconds) => warmRun(seconds), serverFrom }, options.warmupSeconds, options.warmupMaxSeconds);
      warmSampler.stop();
      if (died !== undefined) return failedCell(cell, `target died during warm-up: ${died}`);
      if (!warm || stopLoad.signal.aborted) return failedCell(cell, 'interrupted');
      warmup = warm.sampled;
      warmed = { seconds: warm.seconds, reason: warm.reason };
      await releaseMemory();
    }
    emit({ type: 'cell-start', ...event, phase: 'measure' });
    const before = await services.readCounters(scenario);
    const groupSampler = sampleProcessGroups({ server: running.processGroups, services: services.processGroups() });
    const machine = watchMachineCpu();
    const bound = options.requests !== undefined ? { requests: options.requests } : { durationSeconds: options.durationSeconds ?? 10 };
    const loadStartNs = process.hrtime.bigint();
    const outcome = await untilCrash(engine.run({ ...plan, shape: shapeOf(options, cell.concurrency, bound) }));
    const { server, services: backends } = groupSampler.stop();
    const machineBusyPercent = machine.stop();
    if ('crashed' in outcome) return crashedCell(cell, outcome, loadStartNs, (startNs) => groupSampler.perSecond(startNs).server, warmup);
    const after = await services.readCounters(scenario);
    const series = outcome.seconds
      ? cellSeries({ seconds: outcome.seconds, server: groupSampler.perSecond(outcome.startedAtNs).server }, warmup)
      : undefined;
    const measured = describeMeasurement(cell, outcome, answer, { server, services: backends }, before, after, series, machineBusyPercent);
    // the server's memory a few seconds after the load: does what it grew come back?
    // judged on the duration asked for: an engine may measure a -d 60 run as 59.9 s
    const runSeconds = bound.durationSeconds ?? outcome.durationSeconds;
    const coolDown = series ? await coolDownReading(running.processGroups, runSeconds) : undefined;
    return withSoak(warmed ? { ...measured, warmup: warmed } : measured, coolDown);
  } catch (error) {
    if (isBenchError(error)) throw error;
    return failedCell(cell, `the load generator failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    signal?.removeEventListener('abort', forwardAbort);
  }
}

function describeMeasurement(
  cell: CellContext,
  outcome: LoadMeasurement,
  answer: HttpAnswer | undefined,
  resources: { server?: ResourceSample | undefined; services?: ResourceSample | undefined },
  before: Record<string, CounterReading>,
  after: Record<string, CounterReading>,
  series: SecondPoint[] | undefined,
  machineBusyPercent?: number,
): CellResult {
  const notes: string[] = [];
  const client = outcome.client;
  if (outcome.generators) {
    const { count, segments } = outcome.generators;
    notes.push(
      `one run split over ${count} ${cell.engine.name} processes (segments ${segments.join(', ')}) on this host, released together, their samples merged`,
    );
  }
  if (client && client.cpuPercent >= CLIENT_SATURATED_PERCENT) {
    const over = outcome.generators ? ` (all ${outcome.generators.count} together)` : '';
    notes.push(
      `load generator (${cell.engine.name}) used ${client.cpuPercent}% of a core${over}: it may be the bottleneck, not the server`,
    );
  }
  // an in-process generator whose event loop lags measures its own lag as latency
  if (outcome.eventLoopDelay && outcome.eventLoopDelay.p99 >= EVENT_LOOP_LAG_MS) {
    notes.push(
      `the load generator's event loop was delayed (p99 ${outcome.eventLoopDelay.p99} ms): latencies include the client's own lag`,
    );
  }
  if (outcome.rate && outcome.rate.achieved < outcome.rate.target * 0.98) {
    notes.push(
      `achieved ${outcome.rate.achieved} rps of the ${outcome.rate.target} asked (more than 2% short): the server or the generator could not keep up`,
    );
  }
  if (outcome.errorSamples.length > 0) notes.push(`errors seen: ${outcome.errorSamples.join('; ')}`);
  const stall = detectStall({
    ...outcome,
    concurrency: cell.concurrency,
    serverCpuPercent: resources.server?.cpuPercent,
    clientCpuPercent: client?.cpuPercent,
    machineBusyPercent,
  });
  if (stall) notes.push(stall);
  const workers = cell.settings.maxRequestWorkers;
  const timedOut = explainTimeouts({
    ...outcome,
    timeouts: outcome.failures.timeouts,
    concurrency: cell.concurrency,
    timeoutSeconds: cell.options.timeoutSeconds,
    serverCpuPercent: resources.server?.cpuPercent,
    maxRequestWorkers: typeof workers === 'number' ? workers : undefined,
  });
  if (timedOut) notes.push(timedOut);
  const backend: NonNullable<CellResult['backend']> = {};
  for (const [service, reading] of Object.entries(after)) {
    const start = before[service]?.value ?? 0;
    backend[service] = { counter: reading.counter, before: start, after: reading.value, delta: reading.value - start };
  }
  return measuredCell(cell, {
    measurement: outcome,
    answer,
    resources: Object.fromEntries(Object.entries({ ...resources, client }).filter(([, sample]) => sample !== undefined)),
    ...(Object.keys(backend).length > 0 ? { backend } : {}),
    notes,
    documentLength: expectedLength(cell.scenario) ?? answer?.body.length ?? 0,
    ...(series ? { series } : {}),
  });
}
