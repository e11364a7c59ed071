import {
  isBenchError,
  messageOf,
  overTls,
  type CellResult,
  type HttpAnswer,
  type LoadEngine,
  type RunningTarget,
  type RunProfiling,
  type TlsMaterial,
  type Transport,
  targetStartOptions,
} from '@bench/core';
import type { ServiceManager } from '@bench/services';
import type { RunOptions } from '../options/declarations.js';
import { failedCell, type CellContext } from './cell-result.js';
import { measureCell } from './measure-cell.js';
import type { PlannedPair } from './plan.js';
import type { RunEvent } from './run-events.js';
import type { CellPlace } from './run-hosts.js';
import { engineForServer, type EngineChoice } from './server-habits.js';
import { stateNote } from './state-reset.js';
import { verifyTarget } from './verify.js';

/** What every stack of a run is driven with: fixed before the first cell. */
export interface PairSetting {
  readonly options: RunOptions;
  readonly services: ServiceManager;
  readonly engines: readonly LoadEngine[];
  /** The run's engine, and why when an option chose it. */
  readonly chosen: EngineChoice;
  readonly levels: readonly number[];
  readonly maxConcurrency: number;
  readonly transport: Transport;
  readonly tls: TlsMaterial | undefined;
  readonly profiling: RunProfiling | undefined;
  readonly where: CellPlace;
  readonly emit: (event: RunEvent) => void;
  readonly record: (result: CellResult) => Promise<void>;
  readonly signal: AbortSignal | undefined;
  /** Cells so far and in all, for the progress line. */
  readonly position: { index: number; readonly total: number };
  /** Once a stack has failed (to start, to verify, or mid-run), its remaining cells are recorded as failed. */
  readonly problems: Map<PlannedPair, string>;
  /** The stack running now, which the run stops if it ends another way. */
  running: RunningTarget | undefined;
}

/**
 * One stack's cells in one round: it starts (again at each level where its state is reset by a restart), is
 * verified, is driven by the run's engine or by wire where its server has a habit that engine miscounts
 * (server-habits.ts), then each level is measured and recorded; a cell that cannot run is recorded failed.
 */
export async function runPair(pair: PlannedPair, repeat: number, run: PairSetting): Promise<void> {
  const { scenario, target } = pair;
  const { options, services, problems, emit, signal } = run;
  let drive: EngineChoice = run.chosen;
  const contextFor = (concurrency: number, url = '', settings = {}): CellContext => ({
    scenario,
    target: target.name,
    concurrency,
    repeat,
    options,
    url,
    settings,
    engine: { name: drive.engine.name, version: drive.version, ...(drive.because ? { chosenBecause: drive.because } : {}) },
    ...(drive.engine.checksBodies === false ? { bodiesUnchecked: true } : {}),
    ...(drive.engine.verifiesCertificates === false && overTls(options.protocol) ? { certificatesUnchecked: true } : {}),
    startedAt: new Date().toISOString(),
    ...(run.profiling ? { profiling: run.profiling } : {}),
    ...(run.transport.caFile ? { caFile: run.transport.caFile } : {}),
    ...run.where,
  });
  const reset = target.reset;
  const note = stateNote(target, scenario);
  const start = async () => {
    emit({ type: 'target-starting', scenario: scenario.name, target: target.name });
    try {
      // a target reset while stopped is reset before each start
      if (reset?.whileTarget === 'stopped') await reset.reset();
      run.running = await target.start(
        scenario,
        targetStartOptions(
          {
            ...options,
            maxConcurrency: run.maxConcurrency,
            ...(run.profiling ? { env: run.profiling.env } : {}),
            ...(run.tls ? { tls: run.tls } : {}),
          },
          await services.endpointsFor(scenario),
        ),
      );
    } catch (error) {
      // Input problems (a port in use, a missing service binary, an app server that cannot start) end the run; a reference stack that fails is a failed cell.
      if (isBenchError(error) && error.exitCode === 2) throw error;
      problems.set(pair, messageOf(error));
    }
  };
  if (!problems.has(pair)) await start();
  if (signal?.aborted) return; // interrupted while the stack was starting: nothing was measured
  let answer: HttpAnswer | undefined;
  let warnings: readonly string[] = [];
  if (run.running && !problems.has(pair)) {
    emit({ type: 'target-verifying', scenario: scenario.name, target: target.name });
    const verification = await verifyTarget(run.running.url, scenario, run.transport, {
      database: (kind) => services.database(kind),
      burst: options.tfbBurst,
    });
    if (!verification.ok) problems.set(pair, `verification failed: ${verification.problems.join('; ')}`);
    answer = verification.answer;
    warnings = verification.warnings ?? [];
    if (verification.ok && answer?.habits) {
      const decided = await engineForServer(run.chosen, answer.habits, options, scenario, run.engines);
      if ('refused' in decided) problems.set(pair, decided.refused);
      else drive = decided;
    }
  }
  for (const [level, concurrency] of run.levels.entries()) {
    if (signal?.aborted) return;
    run.position.index++;
    // every cell sees the state the run started with: reset up, or stopped and started again (the first cell's start did it)
    if (reset && run.running && !problems.has(pair)) {
      if (reset.whileTarget === 'running') await reset.reset();
      else if (level > 0) {
        await run.running.stop();
        run.running = undefined;
        await start();
      }
    }
    const cell = contextFor(concurrency, run.running?.url, run.running?.settings);
    const problem = problems.get(pair);
    if (problem || !run.running) {
      await run.record(failedCell(cell, problem ?? 'target did not start'));
      continue;
    }
    const measured = await measureCell(cell, drive.engine, run.running, services, answer, { ...run.position }, emit, signal);
    if (signal?.aborted) return; // an interrupted cell is not a finished result
    if (measured.status === 'failed') problems.set(pair, measured.error ?? 'failed');
    // a note of the target's state, why another engine drove it, and TechEmpower's warnings of its verification
    const switched = drive !== run.chosen && drive.because ? [drive.because] : [];
    const extra = [...(note ? [note] : []), ...switched, ...warnings.map((w) => `verification warned: ${w}`)];
    await run.record(extra.length > 0 && measured.status === 'ok' ? { ...measured, notes: [...measured.notes, ...extra] } : measured);
  }
}
