import path from 'node:path';
import { highestConcurrency } from '../options/declarations.js';
import {
  describeMachine,
  errors,
  makePrivateDir,
  makeTlsMaterial,
  overTls,
  randomSeed,
  removeDir,
  SCHEMA_VERSION,
  seededRandom,
  shuffled,
  type CellResult,
  type LoadEngine,
  type OptionTable,
  type Reporter,
  type RunDocument,
  type Scenario,
  type TargetPlugin,
  type Transport,
  defaultRedaction,
  type Redaction,
  runProfiling,
  callReporters,
  endReporters,
} from '@bench/core';
import { builtinEngines } from '@bench/engines';
import { noServices, type ServiceManager } from '@bench/services';
import { printableCell } from './cell-result.js';
import { assessRounds, fewestRounds, parseTargetPair, type StopReason, evaluateThresholds, type ThresholdsSpec } from '@bench/compare';
import type { RunOptions } from '../options/declarations.js';
import { makePlan } from './plan.js';
import { prepareResets } from './state-reset.js';
import { TOOL_VERSION } from '../version.js';
import { chooseEngine } from '../engine-choice/choose-engine.js';
import { runPair, type PairSetting } from './run-pair.js';
import type { RunEvent } from './run-events.js';
import { JournalWriter } from '../journal/journal-writer.js';
import { redactEvent } from '../redact/redact-event.js';
import { placeRun, type OpenHosts } from './run-hosts.js';

export type { RunEvent } from './run-events.js';

export interface RunContext {
  /** Targets the run may use (built-in and the config's own). */
  readonly targets: readonly TargetPlugin[];
  /** Scenarios the run may use. */
  readonly scenarios: readonly Scenario[];
  /** Load engines to pick `options.engine` from; bench's own when absent. */
  readonly engines?: readonly LoadEngine[];
  /** The option table the run's options were read with (bench's own and its engines'); the built-in one when absent. */
  readonly optionTable?: OptionTable;
  readonly reporters: readonly Reporter[];
  readonly services?: ServiceManager;
  /** Limits to check every cell against; a broken one is in the document (the CLI exits 1). */
  readonly thresholds?: ThresholdsSpec;
  readonly onEvent?: (event: RunEvent) => void;
  /** Aborting stops the cell in progress, keeps every finished one, and ends the run. */
  readonly signal?: AbortSignal;
  /** The command line, recorded in the document. */
  readonly command?: string;
  /** The run's secrets: sent as they are, hidden in the document, the journal and every event; URLs' user info alone when absent. */
  readonly redaction?: Redaction;
  /** The other hosts the stacks and services run on (--server-host): `targets` and `services` are theirs already. */
  readonly hosts?: OpenHosts;
}

/** A run's document before its first cell: its command line and options with no secret in them, and what was hidden. */
export function newRunDocument(command: string, options: RunOptions, redaction: Redaction = defaultRedaction): RunDocument {
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'bench', version: TOOL_VERSION },
    startedAt: new Date().toISOString(),
    complete: false,
    machine: describeMachine(),
    command: redaction.text(command),
    options: redaction.value({ ...options }),
    ...(redaction.names.length > 0 ? { redacted: [...redaction.names] } : {}),
    results: [],
  };
}

/** Plans, runs every cell, and reports: the whole of `bench run` without the terminal. */
export async function runCells(options: RunOptions, context: RunContext): Promise<RunDocument> {
  const services = context.services ?? noServices;
  const signal = context.signal;
  const plan = await makePlan(options, context.targets, context.scenarios);
  const chosen = await chooseEngine(
    options,
    context.engines ?? builtinEngines,
    [...new Set(plan.pairs.map((p) => p.scenario))],
    context.optionTable,
  );
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
  const redaction = context.redaction ?? defaultRedaction;
  const hosts = context.hosts;
  const doc = newRunDocument(context.command ?? '', { ...options, seed }, redaction);
  // every second on disk as it is measured: a run killed at any point leaves what it measured (`bench report JOURNAL`)
  const journal = options.journal !== undefined ? JournalWriter.open(options.journal, doc) : undefined;
  const tell = context.onEvent ?? (() => {});
  const emit = (event: RunEvent) => {
    const shown = redactEvent(redaction, event);
    journal?.record(shown);
    tell(shown);
  };
  const auto = options.repeat === 'auto';
  const repeats = options.repeat === 'auto' ? options.maxRounds : options.repeat;
  const total = plan.pairs.length * plan.concurrency.length * repeats;
  emit({
    type: 'plan',
    plan,
    cells: total,
    engine: chosen.engine.name,
    ...(chosen.because ? { engineBecause: chosen.because } : {}),
    options,
    runStartedAt: doc.startedAt,
  });
  const maxConcurrency = highestConcurrency(options);
  const profiling = runProfiling(options);

  let completed = 0;
  let stoppedBecause: StopReason = auto ? 'max-rounds' : 'fixed';
  let lines: readonly string[] = [];
  // the stacks' setting once made: the stack it runs is stopped however the run ends
  let pairs: PairSetting | undefined;
  let failure: unknown;

  const record = async (measured: CellResult) => {
    const result = redaction.value(printableCell(measured));
    doc.results.push(result);
    emit({ type: 'cell-end', result });
    await callReporters(context.reporters, 'onResult', doc, result);
  };

  let disposeResets: (() => Promise<void>) | undefined;
  // over TLS, the run's own CA and a certificate for the servers: made now, in a private dir removed at the end
  const tlsDir = overTls(options.protocol) && options.url === undefined ? makePrivateDir('tls') : undefined;
  try {
    // on a server host, the certificate names the address the client reaches it by
    const tls = tlsDir ? await makeTlsMaterial(tlsDir, hosts ? [hosts.server.address] : []) : undefined;
    // a server bench did not start (--url https://...) is verified against --ca, or the system's roots
    const caFile = tls?.caFile ?? (options.ca !== undefined ? path.resolve(options.ca) : undefined);
    const transport: Transport = { protocol: options.protocol, ...(caFile ? { caFile } : {}) };
    disposeResets = await prepareResets([...new Set(plan.pairs.map((p) => p.target))]);
    // on several hosts: each machine in the document, and the link's rate, measured before the first cell
    const where = await placeRun(hosts, doc, redaction, (text) => emit({ type: 'step', text }));
    await callReporters(context.reporters, 'onRunStart', doc);
    const setting: PairSetting = {
      options,
      services,
      engines: context.engines ?? builtinEngines,
      chosen,
      levels: plan.concurrency,
      maxConcurrency,
      transport,
      tls,
      profiling,
      where,
      emit,
      record,
      signal,
      position: { index: 0, total },
      problems: new Map(),
      running: undefined,
    };
    pairs = setting;
    // Rounds interleave the targets (each cell once per round, in an order drawn afresh from the seed), so a
    // drift of the machine over the run falls on every target alike and no target always runs first (Abedi and
    // Brecht's randomized multiple interleaved trials); each round starts a stack afresh (a new process, a new
    // warm-up), so rounds are independent samples, and a comparison pairs base and head within each round.
    const random = seededRandom(seed);
    const startedAt = Date.now();
    for (let repeat = 1; repeat <= repeats && !signal?.aborted; repeat++) {
      for (const pair of shuffled(plan.pairs, random)) {
        if (signal?.aborted) break;
        await runPair(pair, repeat, setting);
        await setting.running?.stop();
        setting.running = undefined;
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
    await pairs?.running?.stop().catch(() => {});
    await disposeResets?.();
    if (tlsDir) removeDir(tlsDir);
    await services.stopAll().catch((error: unknown) => (failure ??= error));
    profiling?.close();
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
  journal?.end(doc);
  const endFailure = await endReporters(context.reporters, doc);
  if (failure !== undefined) throw failure;
  if (signal?.aborted) throw errors.interrupted(String(signal.reason ?? 'signal'));
  if (endFailure !== undefined) throw endFailure;
  return doc;
}
