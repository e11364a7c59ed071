import path from 'node:path';
import {
  describeIssue,
  errors,
  scenariosForOneStack,
  TFB_BURST,
  targetStartOptions,
  defaultRedaction,
  type LoadEngine,
  type RunningTarget,
  type Scenario,
  type ServiceEndpoints,
  type TargetPlugin,
} from '@bench/core';
import { suiteRatios } from '@bench/reporters';
import type { SuiteHost } from '@bench/suites';
import type { Project } from '../project/project.js';
import { builtinScenariosDir } from '../project/builtin-scenarios.js';
import { resolveRunOptions } from '../options/resolve.js';
import { runOptionDeclarations, runOptionInputSchema, type RunOptionInput, type RunOptions } from '../options/declarations.js';
import { loadShape } from '../options/load-shape.js';
import { ownOptionValues } from '../engine-choice/engine-candidates.js';
import { chooseEngine } from '../engine-choice/choose-engine.js';
import { failedCell, printableCell, type CellContext } from '../run/cell-result.js';
import { measureCell } from '../run/measure-cell.js';
import { newRunDocument, runCells } from '../run/run-cells.js';
import { placeRun, servicesOf, type CellPlace, type OpenHosts } from '../run/run-hosts.js';
import type { RunEvent } from '../run/run-events.js';
import { verifyTarget } from '../run/verify.js';

/** Where a suite runs from the runner's side: its project, its hosts, and who hears its events. */
export interface SuiteSetting {
  readonly project: Project;
  readonly hosts?: OpenHosts;
  readonly onEvent?: (event: RunEvent) => void;
  readonly signal?: AbortSignal;
}

/** The run loop a suite of the suites package sequences: bench run's options, documents, runs of cells, and a cell's parts. */
export function runnerSuiteHost({ project, hosts, onEvent, signal }: SuiteSetting): SuiteHost<RunOptions> {
  const services = servicesOf(hosts);
  const emit = (event: RunEvent) => onEvent?.(event);
  // each cell records where the run was placed (on several hosts): known once the document is placed
  let where: CellPlace = {};
  const cellContext = (cell: Parameters<SuiteHost<RunOptions>['failed']>[0]): CellContext => ({
    scenario: cell.scenario,
    target: cell.target,
    concurrency: cell.concurrency,
    repeat: 1,
    options: cell.options,
    url: cell.running?.url ?? '',
    settings: cell.running?.settings ?? {},
    engine: cell.engine,
    startedAt: new Date().toISOString(),
    ...where,
  });
  return {
    targets: project.targets,
    scenarios: project.scenarios,
    httpsClientSources: path.join(builtinScenariosDir(), 'https-client'),
    warmupMaxDefault: runOptionDeclarations.warmupMaxSeconds.default ?? 30,
    options: (selection, ...layers) => resolveRunOptions(selection, ...(layers as RunOptionInput[])),
    checkedLayer(layer, where) {
      const parsed = runOptionInputSchema.safeParse(layer);
      if (!parsed.success) throw errors.suiteInvalid(where, describeIssue(parsed.error.issues[0]!));
      return parsed.data;
    },
    document: (command, options) => newRunDocument(command, options),
    async place(doc) {
      where = await placeRun(hosts, doc, defaultRedaction, (text) => emit({ type: 'step', text }));
    },
    async runCells(options, onResult, command) {
      await runCells(options, {
        targets: project.targets,
        scenarios: project.scenarios,
        engines: project.engines,
        reporters: [{ name: 'suite', onResult }],
        services,
        ...(hosts ? { hosts } : {}),
        ...(onEvent ? { onEvent } : {}),
        ...(signal ? { signal } : {}),
        command,
      });
    },
    chooseEngine: (options, scenarios) => chooseEngine(options, project.engines, scenarios),
    services,
    startStack: (target, scenarios, maxConcurrency) => startStack(target, scenarios, services, maxConcurrency),
    verify: (url, scenario, burst) =>
      verifyTarget(url, scenario, undefined, { database: (kind) => services.database(kind), burst: burst ?? TFB_BURST }),
    drive: (engine, running, scenario, options, connections, seconds) =>
      drive(engine, running, scenario, options, connections, seconds, signal),
    measure: (cell, engine, answer, position) =>
      measureCell(cellContext(cell), engine, cell.running!, services, answer, position, emit, signal),
    failed: (cell, error) => failedCell(cellContext(cell), error),
    printable: (result) => printableCell(result),
    ratios: (suite, doc) => suiteRatios(suite, doc),
  };
}

/** A stack serving the scenarios of a group: every one of them in one start, or one. */
async function startStack(
  target: TargetPlugin,
  scenarios: readonly Scenario[],
  services: ReturnType<typeof servicesOf>,
  maxConcurrency: number,
): Promise<RunningTarget> {
  const endpoints: ServiceEndpoints = {};
  for (const scenario of scenarios) Object.assign(endpoints, await services.endpointsFor(scenario));
  const options = targetStartOptions({ maxConcurrency }, endpoints);
  const [only] = scenarios;
  return scenarios.length === 1 && only ? target.start(only, options) : target.startMany!(scenariosForOneStack(scenarios), options);
}

/** A primer or warm-up run: the load only, nothing recorded. */
async function drive(
  engine: LoadEngine,
  running: RunningTarget,
  scenario: Scenario,
  options: RunOptions,
  connections: number,
  seconds: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  await engine
    .run({
      url: running.url + scenario.request.path,
      request: scenario.request,
      expect: scenario.expect.body,
      shape: loadShape(options, connections, { durationSeconds: seconds }),
      options: ownOptionValues(engine, options),
      ...(signal ? { signal } : {}),
    })
    .catch(() => undefined);
}
