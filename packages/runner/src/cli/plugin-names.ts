import path from 'node:path';
import { builtinEngines } from '@bench/engines';
import { builtinTargets } from '@bench/targets';
import { builtinScenarios } from '../project/builtin-scenarios.js';
import { loadProject, type Project } from '../project/project.js';
import { builtinReporterNames } from '../reporters/load-reporters.js';
import { loadSuites } from '@bench/suites';

/** The names of every plugin a command can use, read from the registries (and a config's additions). */
export interface PluginNames {
  readonly scenarios: readonly string[];
  readonly targets: readonly string[];
  readonly engines: readonly string[];
  readonly reporters: readonly string[];
  readonly suites: readonly string[];
}

const suiteNames = () => loadSuites().map((s) => s.definition.name);

/** bench's own plugins, straight from the registries. */
export function builtinPluginNames(): PluginNames {
  return {
    scenarios: builtinScenarios().map((s) => s.name),
    targets: builtinTargets.map((t) => t.name),
    engines: builtinEngines.map((e) => e.name),
    reporters: builtinReporterNames,
    suites: suiteNames(),
  };
}

/** A project's plugins: the registries plus what its config adds (reporters as the config names them). */
export function projectPluginNames(project: Project, cwd = process.cwd()): PluginNames {
  const configReporters = (project.reporters ?? [])
    .map((r) => (path.isAbsolute(r.name) ? `./${path.relative(cwd, r.name)}` : r.name))
    .filter((name) => !builtinReporterNames.includes(name));
  return {
    scenarios: project.scenarios.map((s) => s.name),
    targets: project.targets.map((t) => t.name),
    engines: project.engines.map((e) => e.name),
    reporters: [...builtinReporterNames, ...configReporters],
    suites: suiteNames(),
  };
}

// --config FILE or --config=FILE, as help is asked before commander parses anything.
function configArgument(argv: readonly string[]): string | undefined {
  const at = argv.indexOf('--config');
  if (at >= 0) return argv[at + 1];
  return argv.find((a) => a.startsWith('--config='))?.slice('--config='.length);
}

/** The names help shows: the config's project when it loads, else the registries alone (help never fails on a config). */
export async function helpPluginNames(argv: readonly string[]): Promise<PluginNames> {
  try {
    const configFile = configArgument(argv);
    return projectPluginNames(await loadProject(configFile !== undefined ? { configFile } : {}));
  } catch {
    return builtinPluginNames();
  }
}

/** The help's closing section: every plugin by kind. */
export function pluginsHelpText(names: PluginNames): string {
  const line = (kind: string, list: readonly string[]) => `  ${kind}: ${list.join(', ')}`;
  return [
    '',
    'Plugins (built-in, plus what bench.config adds; `bench list` says which are available here):',
    line('scenarios', names.scenarios),
    line('targets', names.targets),
    line('engines', names.engines),
    line('reporters', names.reporters),
    line('suites', names.suites),
  ].join('\n');
}
