import {
  messageOf,
  isBenchError,
  localProcessHost,
  sampleAcrossHosts,
  watchMachineCpu,
  type CellResult,
  type HttpAnswer,
  type LoadEngine,
  type LoadPlan,
  type LoadProgress,
  type ProcessHost,
  type RunningTarget,
  type StackProfiling,
  cellSeries,
  type SampledRun,
  coolDownReading,
  prepareCellProfile,
  SOAK_RSS_SECONDS,
  withSoak,
  fixedAnswer,
  impossibleCounts,
  warmInOneRun,
  warmUntilSteady,
  timedStep,
} from '@bench/core';
import type { ServiceManager } from '@bench/services';
import { failedCell, type CellContext } from './cell-result.js';
import { crashedCell } from '../measure/crashed-cell.js';
import { releaseMemory } from '../measure/release-memory.js';
import { ownOptionValues } from '../engine-choice/engine-candidates.js';
import { describeMeasurement, type HostReadings } from './describe-measurement.js';
import { loadShape, measuredBound } from '../options/load-shape.js';
import type { RunEvent } from './run-events.js';

export const UNPINNED_PROFILE_NOTE =
  'the server shared its cores with the load generator, which can skew which function a sample is charged to: pin them apart (--cpus server=0,client=1) to profile';

/** One cell: a warm-up until steady, then the measured run with the server, services and machine sampled, then its soak reading. */
export async function measureCell(
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
  // where the stack and its services run: this machine, or the hosts bench started them on (--server-host, --database-host)
  const serverHost = running.host ?? localProcessHost;
  const servicesHost = services.host ?? localProcessHost;
  // --cpus: the stack and the services beside it on the server CPUs (processes they fork later inherit it), the
  // generator on the client CPUs
  if (options.cpus?.server) {
    await serverHost.pinGroups(running.processGroups, options.cpus.server);
    if (servicesHost === serverHost) await serverHost.pinGroups(services.processGroups(), options.cpus.server);
  }
  const plan = {
    // a workload's paths are its steps' own: the URL names the server
    url: running.url + (scenario.workload ? '/' : scenario.request.path),
    options: ownOptionValues(engine, options),
    ...(options.cpus?.client ? { cpus: options.cpus.client } : {}),
    request: scenario.request,
    ...(scenario.workload ? { workload: scenario.workload } : {}),
    ...(options.protocol !== 'http1' ? { protocol: options.protocol } : {}),
    ...(cell.caFile ? { caFile: cell.caFile } : {}),
    expect: scenario.workload ? ({ kind: 'any' } as const) : scenario.expect.body,
    maxCheckedBody: options.maxCheckedBody,
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

  // the profilers are readied before the warm-up (what starting one disturbs settles there) and sample the measured run
  const profiler = await prepareCellProfile(cell.profiling, running);
  let profiling: StackProfiling | undefined;
  let profilerStarted = false;
  let profileTaken = false;
  try {
    // a warm-up before every measured run: each level, each fresh start
    let warmup: SampledRun | undefined;
    let warmed: CellResult['warmup'];
    if (options.warmupSeconds > 0) {
      emit({ type: 'cell-start', ...event, phase: 'warmup' });
      const warmSampler = serverHost.sampleGroups({ server: running.processGroups });
      let died: string | undefined;
      const warmRun = async (seconds: number, extra: Partial<LoadPlan> = {}) => {
        const run = await untilCrash(
          engine.run({ ...plan, ...extra, shape: loadShape(options, cell.concurrency, { durationSeconds: seconds }) }),
        );
        if ('crashed' in run) died = run.crashed;
        return 'crashed' in run || stopLoad.signal.aborted ? undefined : run;
      };
      const serverFrom = (startedAtNs: bigint) => warmSampler.perSecond(startedAtNs).server;
      // the cell's own load until throughput settles (pools grown to what it needs), --warmup-max at most: one run
      // watched second by second where the engine counts its progress, else one-second slices
      const warm = await timedStep('warm-up', engine.name, () =>
        engine.countsProgress && options.warmupMaxSeconds > options.warmupSeconds
          ? warmInOneRun(
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
          : warmUntilSteady({ slice: (seconds) => warmRun(seconds), serverFrom }, options.warmupSeconds, options.warmupMaxSeconds),
      );
      await warmSampler.stop();
      if (died !== undefined) return failedCell(cell, `target died during warm-up: ${died}`);
      if (!warm || stopLoad.signal.aborted) return failedCell(cell, 'interrupted');
      warmup = warm.sampled;
      warmed = { seconds: warm.seconds, reason: warm.reason };
      await releaseMemory();
    }
    emit({ type: 'cell-start', ...event, phase: 'measure', unfinished: failedCell(cell, 'interrupted') });
    const before = await services.readCounters(scenario);
    const groupSampler = sampleAcrossHosts({
      server: { host: serverHost, groups: running.processGroups },
      services: { host: servicesHost, groups: services.processGroups() },
    });
    const machine = watchMachineCpu();
    const bound = measuredBound(options);
    profilerStarted = true;
    profiling = await profiler?.start();
    const loadStartNs = process.hrtime.bigint();
    const outcome = await timedStep('load', engine.name, () =>
      untilCrash(engine.run({ ...plan, shape: loadShape(options, cell.concurrency, bound) })),
    );
    const {
      sets: { server, services: backends },
      busyByHost,
    } = await groupSampler.stop();
    const machineBusyPercent = machine.stop();
    profileTaken = true;
    const taken = await profiling?.stop();
    // unpinned, a sample that falls while the server waits for a core the generator holds is taken where it resumes
    const profile = taken && !options.cpus?.server ? { ...taken, notes: [...taken.notes, UNPINNED_PROFILE_NOTE] } : taken;
    if ('crashed' in outcome) {
      const died = crashedCell(cell, outcome, loadStartNs, (startNs) => groupSampler.perSecond(startNs).server, warmup);
      // what the profilers took from the processes until one died is kept, and says so
      return profile
        ? {
            ...died,
            profile: { ...profile, notes: [...profile.notes, 'the target died during the profile: it covers the seconds until then'] },
          }
        : died;
    }
    const after = await services.readCounters(scenario);
    // counts the server cannot have sent (answers beyond the requests written, bytes too few or too many for them)
    // fail the cell: its figures would be the engine's mistake
    const verified = engine.countsWireBytes ? fixedAnswer(scenario, answer, options.protocol) : undefined;
    const impossible = impossibleCounts(outcome, engine.name, verified, cell.concurrency * (options.pipelining ?? 1));
    if (impossible !== undefined) return failedCell(cell, impossible);
    const series = outcome.seconds
      ? cellSeries({ seconds: outcome.seconds, server: groupSampler.perSecond(outcome.startedAtNs).server }, warmup)
      : undefined;
    const measured = describeMeasurement(cell, outcome, answer, { server, services: backends }, before, after, series, {
      client: machineBusyPercent,
      ...hostReadings(serverHost, servicesHost, busyByHost),
    });
    // the server's memory a few seconds after the load: does what it grew come back?
    // judged on the duration asked for: an engine may measure a -d 60 run as 59.9 s
    const runSeconds = bound.durationSeconds ?? outcome.durationSeconds;
    // a soak verdict reads memory from three measured seconds on (soakVerdict): a shorter run waits for nothing
    const coolDown =
      series && runSeconds >= SOAK_RSS_SECONDS ? await coolDownReading(running.processGroups, runSeconds, serverHost) : undefined;
    return withSoak({ ...measured, ...(warmed ? { warmup: warmed } : {}), ...(profile ? { profile } : {}) }, coolDown);
  } catch (error) {
    // a generator that failed fails its cell; bad input found late (exit code 2) ends the run
    if (isBenchError(error) && error.exitCode === 2) throw error;
    return failedCell(cell, `the load generator failed: ${messageOf(error)}`);
  } finally {
    signal?.removeEventListener('abort', forwardAbort);
    // a cell that ended another way leaves no profiler running (a perf record, a JFR recording) into the next
    if (!profilerStarted) await profiler?.cancel().catch(() => undefined);
    else if (!profileTaken) await profiling?.stop().catch(() => undefined);
  }
}

/** The other hosts' readings for a cell's bound: the server's and the services' host when either is not this machine. */
function hostReadings(serverHost: ProcessHost, servicesHost: ProcessHost, busyByHost: ReadonlyMap<ProcessHost, number>): HostReadings {
  const reading = (host: ProcessHost) => ({ name: host.name, cores: host.cores, busyPercent: busyByHost.get(host) });
  return {
    ...(serverHost.local ? {} : { server: reading(serverHost) }),
    ...(servicesHost.local || servicesHost === serverHost ? {} : { database: reading(servicesHost) }),
  };
}
