import { existsSync } from 'node:fs';
import path from 'node:path';
import type { OptionTable } from '@bench/core';
import { CONFIG_FILES } from '../config/load-config.js';
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

/** What the command line is built from: the plugins' names for help, and bench run's options with the config's engines'. */
export interface CommandLineProject {
  readonly plugins?: PluginNames;
  readonly optionTable?: OptionTable;
}

// the commands whose flags a config's engines can add to
const TAKES_ENGINE_OPTIONS = new Set(['run']);

/**
 * The project the command line needs before it is parsed: for help, the config's plugins when it loads (help never
 * fails on a config); for `bench run` with a config, its option table (a config that cannot load is its error).
 */
export async function commandLineProject(argv: readonly string[], wantsHelp: boolean): Promise<CommandLineProject> {
  const configFile = configArgument(argv);
  const source = configFile !== undefined ? { configFile } : {};
  if (wantsHelp) {
    try {
      const project = await loadProject(source);
      return { plugins: projectPluginNames(project), optionTable: project.optionTable };
    } catch {
      return { plugins: builtinPluginNames() };
    }
  }
  const hasConfig = configFile !== undefined || CONFIG_FILES.some((name) => existsSync(path.join(process.cwd(), name)));
  if (!TAKES_ENGINE_OPTIONS.has(argv[2] ?? '') || !hasConfig) return {};
  return { optionTable: (await loadProject(source)).optionTable };
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
