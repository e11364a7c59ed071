import {
  databaseOf,
  errors,
  onDatabase,
  type DatabaseChoice,
  messageOf,
  printableLine,
  parseNameList,
  scenariosForOneStack,
  TFB_BURST,
  type Scenario,
  type ServiceEndpoints,
  type TargetPlugin,
} from '@bench/core';
import { loadProject, type Project } from '../project/project.js';
import { flagsOverConfig, openHosts, servicesOf, type HostOptions } from '../run/run-hosts.js';
import { resolveScenarios, resolveTargets } from '../run/plan.js';
import { verifyTarget } from '../run/verify.js';
import { databaseWindows } from '../run/database-windows.js';
import type { ServiceManager } from '@bench/services';
import { interruptSignal } from './interrupt.js';
import { runRedaction } from '../redact/run-redaction.js';
import { formatTable } from './format-table.js';

type Cell = { kind: 'pass'; warnings?: readonly string[] } | { kind: 'fail'; detail: string } | { kind: 'skip'; detail: string };

const mark = (cell: Cell | undefined) =>
  cell?.kind === 'pass' ? (cell.warnings ? 'ok (warn)' : 'ok') : cell?.kind === 'fail' ? 'FAIL' : '-';

/** What one start of a target serves: every scenario it checks at once (startMany), or one. */
interface VerifyUnit {
  readonly target: TargetPlugin;
  /** As the stack serves them (mounted where they share a path), in the order asked. */
  readonly scenarios: readonly Scenario[];
}

/** A target that can serve several scenarios at once is started once for all it serves; another once per scenario. */
function verifyUnits(target: TargetPlugin, scenarios: readonly Scenario[]): VerifyUnit[] {
  if (target.startMany && scenarios.length > 1) return [{ target, scenarios: scenariosForOneStack(scenarios) }];
  return scenarios.map((scenario) => ({ target, scenarios: [scenario] }));
}

/** The services of every scenario of a unit, started once each and merged. */
async function endpointsOf(scenarios: readonly Scenario[], services: ServiceManager): Promise<ServiceEndpoints> {
  const endpoints: ServiceEndpoints = {};
  for (const scenario of scenarios) Object.assign(endpoints, await services.endpointsFor(scenario));
  return endpoints;
}

/** Starts the unit's stack once and checks every scenario it serves; a stack that does not start fails them all. */
async function verifyUnit(unit: VerifyUnit, services: ServiceManager, burst: number): Promise<Map<string, Cell>> {
  const cells = new Map<string, Cell>();
  const { target, scenarios } = unit;
  const failAll = (detail: string, only: (name: string) => boolean = () => true) => {
    for (const scenario of scenarios) if (only(scenario.name)) cells.set(scenario.name, { kind: 'fail', detail });
  };
  let running;
  try {
    const options = { services: await endpointsOf(scenarios, services) };
    const [only] = scenarios;
    const start = () => (scenarios.length === 1 && only ? target.start(only, options) : target.startMany!(scenarios, options));
    // a stack may read the database as it starts (a cache filled from World, its first answer): never inside a count
    running = await (scenarios.some((s) => databaseOf(s)) ? databaseWindows.shared(start) : start());
  } catch (error) {
    failAll(messageOf(error));
    return cells;
  }
  const check = async (scenario: Scenario) => {
    const verification = await verifyTarget(running.url, scenario, undefined, { database: (kind) => services.database(kind), burst });
    const warnings = verification.warnings ?? [];
    cells.set(
      scenario.name,
      verification.ok
        ? { kind: 'pass', ...(warnings.length > 0 ? { warnings } : {}) }
        : { kind: 'fail', detail: [...verification.problems, ...warnings].join('; ') },
    );
  };
  try {
    // one answer at a time; then TechEmpower's checks side by side (each waits a second for its Date to change, and
    // those that count queries take the database in turn)
    for (const scenario of scenarios.filter((s) => !s.tfb)) await check(scenario);
    await Promise.all(scenarios.filter((s) => s.tfb).map(check));
  } catch (error) {
    // a check that threw fails what it left unchecked; the other units' results still print
    failAll(messageOf(error), (name) => !cells.has(name));
  } finally {
    // a stack that does not stop fails its scenarios, whatever they answered
    await running.stop().catch((error: unknown) => failAll(`the stack did not stop: ${messageOf(error)}`));
  }
  // in the order asked
  return new Map(scenarios.flatMap((s) => (cells.has(s.name) ? [[s.name, cells.get(s.name)!] as const] : [])));
}

/** Starts every target for the scenarios it serves (once for them all where it can), checks each answer, prints a pass/fail matrix. */
export async function verifyCommand(
  scenarioNames: string[],
  flags: { targets?: string; config?: string; jobs?: number; tfbBurst?: number; db?: DatabaseChoice } & HostOptions,
): Promise<void> {
  const loaded = await loadProject(flags.config !== undefined ? { configFile: flags.config } : {});
  // --server-host: every stack starts there, its services beside it (or on --database-host), and is checked from here
  const hosts = await openHosts(flagsOverConfig(flags, loaded));
  // what it prints holds no secret of the project's (a query parameter --redact names, a config's secret())
  const shown = runRedaction(loaded);
  try {
    const project = hosts ? { ...loaded, targets: hosts.targets(loaded.targets) } : loaded;
    await verifyOn(project, scenarioNames, flags, servicesOf(hosts), (stream, text) => stream.write(shown.text(text)));
  } catch (error) {
    throw shown.error(error);
  } finally {
    await hosts?.close();
  }
}

async function verifyOn(
  project: Project,
  scenarioNames: string[],
  flags: { targets?: string; jobs?: number; tfbBurst?: number; db?: DatabaseChoice },
  services: ServiceManager,
  say: (stream: NodeJS.WriteStream, text: string) => void,
): Promise<void> {
  const scenarioList = scenarioNames.length ? parseNameList(scenarioNames) : project.selected.scenarios;
  const scenarios = scenarioList
    ? resolveScenarios(scenarioList, project.scenarios, flags.db)
    : project.scenarios.map((s) => onDatabase(s, flags.db ?? 'mariadb'));
  const targetList = flags.targets !== undefined ? parseNameList([flags.targets]) : project.selected.targets;
  const explicit = targetList !== undefined;
  const targets = targetList ? resolveTargets(targetList, project.targets) : [...project.targets];
  await services.prepare(scenarios);
  const interrupt = interruptSignal();
  const results = new Map<string, Cell>();
  const notes: string[] = [];
  try {
    const units: VerifyUnit[] = [];
    for (const target of targets) {
      const availability = await target.available();
      if (!availability.ok) {
        if (explicit) throw errors.targetUnavailable(target.name, availability.reason ?? 'unknown reason');
        notes.push(`${target.name}: not available (${availability.reason ?? ''})`);
        continue;
      }
      const served: Scenario[] = [];
      for (const scenario of scenarios) {
        const support = target.supports(scenario);
        if (support.ok) served.push(scenario);
        else results.set(`${target.name}/${scenario.name}`, { kind: 'skip', detail: support.reason });
      }
      units.push(...verifyUnits(target, served));
    }
    // --jobs: that many stacks starting and answering at once (each on its own ports and private dir)
    let next = 0;
    const worker = async () => {
      for (let unit = units[next++]; unit; unit = units[next++]) {
        if (interrupt.signal.aborted) throw errors.interrupted(String(interrupt.signal.reason));
        for (const [name, cell] of await verifyUnit(unit, services, flags.tfbBurst ?? TFB_BURST)) {
          results.set(`${unit.target.name}/${name}`, cell);
          say(process.stderr, `bench: verify ${unit.target.name} / ${name}: ${mark(cell)}\n`);
        }
      }
    };
    // every worker finishes (stopping its stack) before the services stop
    const ended = await Promise.allSettled(Array.from({ length: Math.max(1, flags.jobs ?? 1) }, worker));
    const thrown = ended.find((e): e is PromiseRejectedResult => e.status === 'rejected');
    if (thrown) throw thrown.reason;
    const pairs = targets.flatMap((target) => scenarios.map((scenario) => ({ target, scenario })));
    for (const { target, scenario } of pairs) {
      const cell = results.get(`${target.name}/${scenario.name}`);
      if (cell && cell.kind !== 'pass')
        notes.push(`${target.name} / ${scenario.name}: ${cell.kind === 'fail' ? 'FAIL' : 'not supported'}: ${printableLine(cell.detail)}`);
      else for (const warning of cell?.warnings ?? []) notes.push(`${target.name} / ${scenario.name}: warning: ${printableLine(warning)}`);
    }
  } finally {
    await services.stopAll();
    interrupt.dispose();
  }
  const failures = [...results.values()].filter((c) => c.kind === 'fail').length;
  const rows = targets.map((t) => [t.name, ...scenarios.map((s) => mark(results.get(`${t.name}/${s.name}`)))]);
  say(process.stdout, `${formatTable(['target', ...scenarios.map((s) => s.name)], rows)}\n`);
  if (notes.length) say(process.stdout, `\n${notes.join('\n')}\n`);
  if (failures > 0) {
    throw errors.verifyFailed(failures, [...results.values()].filter((c) => c.kind !== 'skip').length);
  }
}
