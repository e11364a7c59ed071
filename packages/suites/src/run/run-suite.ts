import { callReporters, endReporters, errors, type CellResult, type RunDocument } from '@bench/core';
import { httpsClients } from '../https-clients/clients.js';
import { measureHttpsClients } from '../https-clients/measure-clients.js';
import { earlierRuns, recordRun } from '../run-record.js';
import { scaleOptions } from '../scale.js';
import type { Suite } from '../suite-registry.js';
import type { SuiteRun } from '../suite-schema.js';
import { planRunShape } from '../time-shape.js';
import { runTechempowerSuite } from './run-techempower.js';
import type { OptionLayer, SuiteHost, SuiteOptions, SuiteRunRequest } from './suite-host.js';

/** Rounds of every cell a suite runs unless told otherwise: the fewest that give a ratio its interval. */
export const SUITE_ROUNDS = 3;

// a quick scaled run waits less for a stack to settle too (never under 2 s: steadiness needs two seconds)
const scaledWarmupCap = (warmupMax: number, scale: number) => Math.max(2, Math.round(warmupMax * scale));

/**
 * The option layers of one suite run at a scale, from the suite, each checked against bench run's option table as a
 * config's `defaults` are (suite.json is input too); the article's time, where it replaces a request count, first.
 */
export function suiteRunLayers<O extends SuiteOptions>(
  host: Pick<SuiteHost<O>, 'checkedLayer'>,
  suite: Suite,
  run: SuiteRun,
  scale: number,
) {
  const where = `suite ${suite.definition.name}, run ${run.id}`;
  return [planRunShape(suite, run, scale).options, scaleOptions(run.options, scale)].map((layer) => host.checkedLayer(layer, where));
}

/** Article 002: client-side timings, kept in the document's clientTimings for the suite reporter and `bench report`. */
async function runClientTimingSuite<O extends SuiteOptions>(request: SuiteRunRequest, host: SuiteHost<O>): Promise<RunDocument> {
  const { definition } = request.suite;
  const ns = [...new Set((definition.ns ?? [10, 50, 100]).map((n) => Math.max(1, Math.round(n * request.scale))))];
  const doc = host.document(
    request.command ?? '',
    host.options({ scenarios: ['https-client'] }, request.repeat !== undefined ? { repeat: request.repeat } : {}),
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
        sourcesDir: host.httpsClientSources,
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
 * `bench suite`: each of the suite's runs as an ordinary bench run, every result (tagged with its run) gathered into one
 * document, which the reporters see as one run: the suite reporter draws the article's tables from it, the json
 * reporter keeps it for `bench report`. TechEmpower's suite runs TFB's own sequence; article 002's times clients.
 */
export async function runSuite<O extends SuiteOptions>(request: SuiteRunRequest, host: SuiteHost<O>): Promise<RunDocument> {
  const { definition } = request.suite;
  if (definition.kind === 'https-clients') return runClientTimingSuite(request, host);
  if (definition.kind === 'techempower') return runTechempowerSuite(request, host);
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
      const target = host.targets.find((t) => t.name === name);
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

  const given: OptionLayer = {
    ...(request.repeat !== undefined ? { repeat: request.repeat } : {}),
    ...(request.engine !== undefined ? { engine: request.engine } : {}),
  };
  const doc = host.document(request.command ?? '', host.options({ scenarios: definition.runs.flatMap((r) => r.scenarios) }, given));
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
  await host.place(doc);
  await callReporters(request.reporters, 'onRunStart', doc);
  try {
    for (const { run, targets } of runnable) {
      if (request.signal?.aborted) break;
      // the article's time shape replaces its request count; every cell runs SUITE_ROUNDS rounds unless the suite or -r says
      const shaped = host.options(
        { scenarios: run.scenarios, targets },
        given,
        ...suiteRunLayers(host, request.suite, run, request.scale),
        { repeat: SUITE_ROUNDS, ...(request.scale < 1 ? { warmupMaxSeconds: scaledWarmupCap(host.warmupMaxDefault, request.scale) } : {}) },
      );
      // every result of this run joins the suite's document, tagged with the run, as it finishes
      const gather = async (result: CellResult) => {
        const tagged = { ...result, suiteRun: run.id };
        doc.results.push(tagged);
        await callReporters(request.reporters, 'onResult', doc, tagged);
      };
      await host.runCells(shaped, gather, `${request.command ?? 'bench suite'} (${run.id})`);
    }
  } catch (error) {
    failure = error;
  }
  doc.complete = failure === undefined && !request.signal?.aborted;
  doc.finishedAt = new Date().toISOString();
  // a finished run is kept for the runs after it (an interrupted one would weigh its half-measured rounds)
  if (doc.complete) recordRun(request.suite, request.scale, doc.finishedAt, host.ratios(request.suite, doc));
  const endFailure = await endReporters(request.reporters, doc);
  if (failure !== undefined) throw failure;
  if (endFailure !== undefined) throw endFailure;
  return doc;
}
