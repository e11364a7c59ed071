import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  messageOf,
  describeIssue,
  errors,
  loadScenario,
  loadScenarios,
  optionInputSchema,
  requestScenario,
  buildWorkload,
  needsWorkload,
  workloadScenario,
  type RequestScenarioSpec,
  type ScenarioObjectInput,
  type LoadEngine,
  type OptionTable,
  type Scenario,
  type TargetPlugin,
  z,
} from '@bench/core';
import { builtinTargets, commandTarget, urlTarget } from '@bench/targets';
import { inlineConfig, loadConfig, type LoadedConfig } from '../config/load-config.js';
import { hostsOptionKeys, type ReporterConfigEntry, type ScenarioConfigEntry, type TargetConfigEntry } from '../config/schema.js';
import type { ThresholdsSpec } from '@bench/compare';
import { builtinEngines, engineOptionTable } from '@bench/engines';
import { runOptionDeclarations, type RunOptionInput } from '../options/declarations.js';
import type { ReporterSpec } from '../reporters/reporter-spec.js';
import { builtinScenarios } from './builtin-scenarios.js';
import { loadEngine, withEngine } from './load-engine.js';
import { importDefault, looksLikePath } from './load-module.js';

/** Everything a command can run: bench's own targets, scenarios and engines, plus what the config adds. */
export interface Project {
  /** The config file, when there is one. */
  readonly config?: LoadedConfig;
  readonly targets: readonly TargetPlugin[];
  readonly scenarios: readonly Scenario[];
  readonly engines: readonly LoadEngine[];
  /** `bench run`'s options: bench's own, its engines' and the config's engines' (their flags, config keys and defaults). */
  readonly optionTable: OptionTable;
  /** What `bench run` runs when no names are given: the config's own lists. */
  readonly selected: { readonly scenarios?: readonly string[]; readonly targets?: readonly string[] };
  readonly reporters?: readonly ReporterSpec[];
  readonly defaults?: RunOptionInput;
  readonly thresholds?: ThresholdsSpec;
}

const isTargetPlugin = (value: unknown): value is TargetPlugin =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as TargetPlugin).name === 'string' &&
  ['start', 'available', 'supports'].every((hook) => typeof (value as unknown as Record<string, unknown>)[hook] === 'function');

async function configTarget(
  entry: TargetConfigEntry,
  index: number,
  config: LoadedConfig,
  builtins: readonly TargetPlugin[],
): Promise<TargetPlugin> {
  const where = path.basename(config.file);
  if (typeof entry !== 'string') {
    if ('url' in entry) return urlTarget(entry);
    return commandTarget({ ...entry, ...(entry.cwd !== undefined ? { cwd: path.resolve(config.dir, entry.cwd) } : { cwd: config.dir }) });
  }
  if (!looksLikePath(entry)) {
    const builtin = builtins.find((t) => t.name === entry);
    if (!builtin)
      throw errors.config(
        where,
        `targets.${index}: unknown built-in target "${entry}"; known: ${builtins.map((t) => t.name).join(', ')} (a module path starts with ./)`,
      );
    return builtin;
  }
  const file = path.resolve(config.dir, entry);
  if (!existsSync(file)) throw errors.config(where, `targets.${index}: no module at ${file}`);
  let exported: unknown;
  try {
    exported = await importDefault(file);
  } catch (error) {
    throw errors.config(
      where,
      `targets.${index}: ${entry} cannot be loaded: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      error,
    );
  }
  if (!isTargetPlugin(exported))
    throw errors.config(
      where,
      `targets.${index}: the default export of ${entry} is not a target plugin ({ name, supports, available, start })`,
    );
  return exported;
}

function configScenarios(
  entry: ScenarioConfigEntry,
  index: number,
  config: LoadedConfig,
  builtins: readonly Scenario[],
  objects: ReadonlyMap<string, ScenarioObjectInput>,
): Scenario[] {
  const where = path.basename(config.file);
  if (typeof entry !== 'string') {
    if (!needsWorkload(entry)) return [requestScenario(entry as RequestScenarioSpec)];
    const workload = buildWorkload(entry, {
      entries: objects,
      dir: config.dir,
      fail: (detail) => {
        throw errors.config(where, detail);
      },
    });
    return [workloadScenario(entry, workload)];
  }
  if (!looksLikePath(entry)) {
    const builtin = builtins.find((s) => s.name === entry);
    if (!builtin) throw errors.config(where, `scenarios.${index}: unknown built-in scenario "${entry}" (a folder path starts with ./)`);
    return [builtin];
  }
  const dir = path.resolve(config.dir, entry);
  if (existsSync(path.join(dir, 'scenario.json'))) return [loadScenario(dir)];
  const found = existsSync(dir) ? loadScenarios(dir) : [];
  if (found.length === 0) throw errors.config(where, `scenarios.${index}: ${dir} holds no scenario.json (nor folders that do)`);
  return found;
}

function configReporter(entry: ReporterConfigEntry, config: LoadedConfig): ReporterSpec {
  const [name, options] = typeof entry === 'string' ? [entry, {}] : entry;
  const { out, ...rest } = options as { out?: unknown };
  return {
    name: looksLikePath(name) ? path.resolve(config.dir, name) : name,
    ...(typeof out === 'string' ? { out: path.resolve(config.dir, out) } : {}),
    options: rest,
  };
}

/** bench run's option table with the options of the config's own engines added; a name bench already uses is refused. */
function projectOptionTable(engines: readonly LoadEngine[], where: string): OptionTable {
  const own = engines.filter((engine) => !builtinEngines.includes(engine));
  for (const engine of own)
    for (const key of Object.keys(engine.options ?? {}))
      if (Object.hasOwn(runOptionDeclarations, key))
        throw errors.config(where, `engine ${engine.name}'s option "${key}" is an option of bench run already; name it otherwise`);
  try {
    return { ...runOptionDeclarations, ...engineOptionTable(own) };
  } catch (error) {
    throw errors.config(where, messageOf(error), error);
  }
}

export interface ProjectSource {
  /** A config file path; bench.config.* in cwd when absent. */
  readonly configFile?: string;
  /** A config given as an object instead of a file. */
  readonly config?: unknown;
  readonly cwd?: string;
}

/** Built-in registries merged with the config's own, names checked for clashes. */
export async function loadProject(source: ProjectSource = {}): Promise<Project> {
  const config =
    source.config !== undefined
      ? inlineConfig(source.config, source.cwd)
      : await loadConfig({
          ...(source.configFile !== undefined ? { file: source.configFile } : {}),
          ...(source.cwd ? { cwd: source.cwd } : {}),
        });
  const scenarios = builtinScenarios();
  if (!config) return { targets: builtinTargets, scenarios, engines: builtinEngines, optionTable: runOptionDeclarations, selected: {} };

  const where = path.basename(config.file);
  const { targets: targetEntries, scenarios: scenarioEntries, reporters, engines: engineEntries, thresholds, hosts } = config.config;
  let { defaults } = config.config;
  // `hosts` holds run options under the names a user of several machines reads; they join the defaults
  if (hosts) {
    // an ssh config's path is from the config's folder; --remote-dir is a path on the other hosts, kept as written
    const given: Record<string, string> = {};
    for (const [key, value] of Object.entries(hosts) as Array<[keyof typeof hostsOptionKeys, string]>)
      given[hostsOptionKeys[key]] = key === 'sshConfig' ? path.resolve(config.dir, value) : value;
    defaults = { ...defaults, ...given };
  }
  const chosenTargets = await Promise.all((targetEntries ?? []).map((entry, i) => configTarget(entry, i, config, builtinTargets)));
  // a mix may name any scenario object of the config
  const objects = new Map<string, ScenarioObjectInput>();
  for (const entry of scenarioEntries ?? []) if (typeof entry !== 'string') objects.set(entry.name, entry);
  const chosenScenarios = (scenarioEntries ?? []).flatMap((entry, i) => configScenarios(entry, i, config, scenarios, objects));
  const targets = [...builtinTargets];
  for (const target of chosenTargets) {
    const existing = targets.find((t) => t.name === target.name);
    if (existing && existing !== target)
      throw errors.config(where, `target name "${target.name}" is taken (by a built-in target or an earlier entry); choose another`);
    if (!existing) targets.push(target);
  }
  const allScenarios = [...scenarios];
  for (const scenario of chosenScenarios) {
    const existing = allScenarios.find((s) => s.name === scenario.name);
    if (existing && existing !== scenario)
      throw errors.config(where, `scenario name "${scenario.name}" is taken (by a built-in scenario or an earlier entry); choose another`);
    if (!existing) allScenarios.push(scenario);
  }
  let engines: readonly LoadEngine[] = builtinEngines;
  for (const entry of engineEntries ?? []) {
    const engine = await loadEngine(entry, engines, config.dir);
    if (engines.includes(engine)) continue;
    if (engines.some((e) => e.name === engine.name))
      throw errors.config(
        where,
        `engine name "${engine.name}" (from ${entry}) is taken (by a built-in engine or an earlier entry); choose another`,
      );
    engines = [...engines, engine];
  }
  // defaults.engine may name a module too, relative to the config
  if (defaults?.engine !== undefined) {
    const chosen = await withEngine(engines, defaults.engine, config.dir);
    engines = chosen.engines;
    defaults = { ...defaults, engine: chosen.name };
  }
  const optionTable = projectOptionTable(engines, where);
  // the config's defaults, now that its engines' options are known
  const checked = z.object({ defaults: optionInputSchema(optionTable).optional() }).safeParse({ defaults });
  if (!checked.success) throw errors.config(where, describeIssue(checked.error.issues[0]!));
  return {
    config,
    targets,
    scenarios: allScenarios,
    engines,
    optionTable,
    selected: {
      ...(targetEntries ? { targets: [...new Set(chosenTargets.map((t) => t.name))] } : {}),
      ...(scenarioEntries ? { scenarios: [...new Set(chosenScenarios.map((s) => s.name))] } : {}),
    },
    ...(reporters ? { reporters: reporters.map((r) => configReporter(r, config)) } : {}),
    ...(defaults ? { defaults } : {}),
    ...(thresholds ? { thresholds } : {}),
  };
}
