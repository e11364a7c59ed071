import path from 'node:path';
import {
  callReporters,
  describeIssue,
  endReporters,
  errors,
  type CellResult,
  type Reporter,
  type RunDocument,
  defaultRedaction,
} from '@bench/core';
import { suiteRatios } from '@bench/reporters';
import {
  earlierRuns,
  httpsClients,
  measureHttpsClients,
  planRunShape,
  recordRun,
  scaleOptions,
  type Suite,
  type SuiteRun,
} from '@bench/suites';
import type { Project } from '../project/project.js';
import { builtinScenariosDir } from '../project/builtin-scenarios.js';
import { resolveRunOptions } from '../options/resolve.js';
import { runOptionDeclarations, runOptionInputSchema, type RunOptionInput } from '../options/declarations.js';
import { newRunDocument, runCells } from '../run/run-cells.js';
import { placeRun, servicesOf } from '../run/run-hosts.js';
import { runTechempowerSuite } from './run-techempower.js';
import type { SuiteRunRequest } from './suite-request.js';

export type { SuiteRunRequest } from './suite-request.js';

// a quick scaled run waits less for a stack to settle too (never under 2 s: steadiness needs two seconds)
const scaledWarmupCap = (scale: number) => Math.max(2, Math.round((runOptionDeclarations.warmupMaxSeconds.default ?? 30) * scale));

/** Rounds of every cell a suite runs unless told otherwise: the fewest that give a ratio its interval. */
export const SUITE_ROUNDS = 3;

/**
 * The options of one suite run at a scale, from the suite, checked against bench run's option table as a config's
 * `defaults` are (suite.json is input too); the article's time, where it replaces a request count, first.
 */
export function suiteRunOptions(suite: Suite, run: SuiteRun, scale: number): RunOptionInput[] {
  return [planRunShape(suite, run, scale).options, scaleOptions(run.options, scale)].map((layer) => {
    const parsed = runOptionInputSchema.safeParse(layer);
    if (!parsed.success) throw errors.suiteInvalid(`suite ${suite.definition.name}, run ${run.id}`, describeIssue(parsed.error.issues[0]!));
    return parsed.data;
  });
}

/** Article 002: client-side timings, kept in the document's clientTimings for the suite reporter and `bench report`. */
async function runClientTimingSuite(request: SuiteRunRequest): Promise<RunDocument> {
  const { definition } = request.suite;
  const ns = [...new Set((definition.ns ?? [10, 50, 100]).map((n) => Math.max(1, Math.round(n * request.scale))))];
  const doc = newRunDocument(
    request.command ?? '',
    resolveRunOptions({ scenarios: ['https-client'] }, request.repeat !== undefined ? { repeat: request.repeat } : {}),
  );
  // the article's own shape: each client timed whole over n requests in a row, nothing to stretch
  const shape = `clients: the article's shape, each client's whole process timed over ${ns.join(', ')} requests in a row`;
  doc.suite = { name: definition.name, scale: request.scale, skipped: {}, shapes: [{ run: 'clients', kind: 'requests', line: shape }] };
  for (const client of httpsClients) {
    const availability = client.available();
    if (!availability.ok) doc.suite.skipped[client.name] = availability.reason ?? 'not available';
  }
  await callReporters(request.reporters, 'onRunStart', doc);
  let failure: unknown;
  try {
    doc.clientTimings = (
      await measureHttpsClients({
        sourcesDir: path.join(builtinScenariosDir(), 'https-client'),
        ns,
        runs: request.repeat ?? definition.measurements ?? 5,
        ...(request.signal ? { signal: request.signal } : {}),
        onProgress: (line) => request.onEvent?.({ type: 'step', text: `timing the ${line}` }),
      })
    ).map((m) => ({ ...m, seconds: [...m.seconds] }));
  } catch (error) {
    failure = error;
  }
  doc.complete = failure === undefined;
  doc.finishedAt = new Date().toISOString();
  const endFailure = await endReporters(request.reporters, doc);
  if (failure !== undefined) throw failure;
  if (endFailure !== undefined) throw endFailure;
  return doc;
}

/**
 * Runs each of the suite's runs as an ordinary bench run and gathers every result (tagged with
 * its run) into one document, which the reporters see as one run: the suite reporter draws the
 * article's tables from it, the json reporter keeps it for `bench report`.
 */
export async function runSuite(project: Project, request: SuiteRunRequest): Promise<RunDocument> {
  const { definition } = request.suite;
  if (definition.kind === 'https-clients') return runClientTimingSuite(request);
  if (definition.kind === 'techempower') return runTechempowerSuite(project, request);
  const skipped: Record<string, string> = {};
  const runnable = [];
  const named = new Set(definition.runs.flatMap((r) => r.targets));
  const unknown = request.targets?.filter((t) => !named.has(t)) ?? [];
  if (unknown.length > 0)
    throw errors.usage(`suite ${definition.name} has no target ${unknown.join(', ')}; its targets: ${[...named].join(', ')}`);
  for (const run of definition.runs) {
    const targets = [];
    for (const name of run.targets) {
      if (request.targets && !request.targets.includes(name)) {
        skipped[name] = 'not selected (-t)';
        continue;
      }
      const target = project.targets.find((t) => t.name === name);
      const availability = target ? await target.available() : { ok: false, reason: 'no such target in this version of bench' };
      if (availability.ok) targets.push(name);
      else skipped[name] = availability.reason ?? 'not available';
    }
    if (targets.length > 0) runnable.push({ run, targets });
  }
  if (runnable.length === 0)
    throw errors.nothingToRun(
      `no target of suite ${definition.name} is available here (${Object.entries(skipped)
        .map(([t, r]) => `${t}: ${r}`)
        .join('; ')})`,
    );

  const options: RunOptionInput = {
    ...(request.repeat !== undefined ? { repeat: request.repeat } : {}),
    ...(request.engine !== undefined ? { engine: request.engine } : {}),
  };
  const doc = newRunDocument(request.command ?? '', resolveRunOptions({ scenarios: definition.runs.flatMap((r) => r.scenarios) }, options));
  const shapes = new Map(runnable.map(({ run }) => [run.id, planRunShape(request.suite, run, request.scale)]));
  // the earlier runs of this suite here, whose spread the ratios' intervals cover beside this run's rounds
  const earlier = earlierRuns(request.suite, request.scale);
  doc.suite = {
    name: definition.name,
    scale: request.scale,
    skipped,
    shapes: [...shapes.values()].map((s) => s.shape),
    ...(earlier.length > 0 ? { earlierRuns: earlier } : {}),
  };
  let failure: unknown;
  await placeRun(request.hosts, doc, defaultRedaction, (text) => request.onEvent?.({ type: 'step', text }));
  await callReporters(request.reporters, 'onRunStart', doc);
  try {
    for (const { run, targets } of runnable) {
      if (request.signal?.aborted) break;
      // every result of this run joins the suite's document, tagged with the run, as it finishes
      const gather: Reporter = {
        name: `suite ${definition.name}`,
        onResult: async (result: CellResult) => {
          const tagged = { ...result, suiteRun: run.id };
          doc.results.push(tagged);
          await callReporters(request.reporters, 'onResult', doc, tagged);
        },
      };
      // the article's time shape replaces its request count; every cell runs SUITE_ROUNDS rounds unless the suite or -r says
      const shaped = resolveRunOptions(
        { scenarios: run.scenarios, targets },
        options,
        ...suiteRunOptions(request.suite, run, request.scale),
        { repeat: SUITE_ROUNDS, ...(request.scale < 1 ? { warmupMaxSeconds: scaledWarmupCap(request.scale) } : {}) },
      );
      await runCells(shaped, {
        targets: project.targets,
        scenarios: project.scenarios,
        engines: project.engines,
        reporters: [gather],
        services: servicesOf(request.hosts),
        ...(request.hosts ? { hosts: request.hosts } : {}),
        ...(request.onEvent ? { onEvent: request.onEvent } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
        command: `${request.command ?? 'bench suite'} (${run.id})`,
      });
    }
  } catch (error) {
    failure = error;
  }
  doc.complete = failure === undefined && !request.signal?.aborted;
  doc.finishedAt = new Date().toISOString();
  // a finished run is kept for the runs after it (an interrupted one would weigh its half-measured rounds)
  if (doc.complete) recordRun(request.suite, request.scale, doc.finishedAt, suiteRatios(request.suite, doc));
  const endFailure = await endReporters(request.reporters, doc);
  if (failure !== undefined) throw failure;
  if (endFailure !== undefined) throw endFailure;
  return doc;
}
