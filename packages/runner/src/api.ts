import type { Reporter, RunDocument } from '@bench/core';
import type { BenchConfig } from './config/define-config.js';
import type { ReporterConfigEntry } from './config/schema.js';
import type { RunOptionInput } from './options/declarations.js';
import { loadProject } from './project/project.js';
import type { ReporterSpec } from './reporters/reporter-spec.js';
import { loadReporters } from './reporters/load-reporters.js';
import { runProject } from './run/run-project.js';
import type { RunEvent } from './run/run-cells.js';

export interface RunInput {
  /** Scenario names; the config's own when absent. */
  readonly scenarios?: readonly string[];
  /** Target names; the config's own (or every available one) when absent. */
  readonly targets?: readonly string[];
  /** Options, named as in a results file's `options`; they override the config's `defaults`. */
  readonly options?: RunOptionInput;
  /** A config file path, or the config itself; bench.config.* in `cwd` when absent. */
  readonly config?: string | BenchConfig;
  readonly cwd?: string;
  /** Reporters: names, module paths, [nameOrPath, options], or reporter objects; the config's when absent, else none. */
  readonly reporters?: ReadonlyArray<ReporterConfigEntry | Reporter>;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: RunEvent) => void;
}

const isReporterObject = (entry: ReporterConfigEntry | Reporter): entry is Reporter => typeof entry === 'object' && !Array.isArray(entry);

/**
 * Runs bench as `bench run` does, without the terminal: starts targets and services, verifies,
 * drives the load, stops everything, and resolves with the results document (thresholds checked).
 */
export async function run(input: RunInput = {}): Promise<RunDocument> {
  const project = await loadProject({
    ...(typeof input.config === 'string' ? { configFile: input.config } : input.config !== undefined ? { config: input.config } : {}),
    ...(input.cwd ? { cwd: input.cwd } : {}),
  });
  const entries = input.reporters ?? [];
  const specs: ReporterSpec[] = entries
    .filter((e): e is ReporterConfigEntry => !isReporterObject(e))
    .map((e) =>
      typeof e === 'string' ? { name: e } : { name: e[0], ...(typeof e[1].out === 'string' ? { out: e[1].out } : {}), options: e[1] },
    );
  const reporters = [
    ...(await loadReporters(input.reporters === undefined ? (project.reporters ?? []) : specs)),
    ...entries.filter(isReporterObject),
  ];
  return runProject(project, {
    ...(input.scenarios ? { scenarios: input.scenarios } : {}),
    ...(input.targets ? { targets: input.targets } : {}),
    ...(input.options ? { options: input.options } : {}),
    reporters,
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.onEvent ? { onEvent: input.onEvent } : {}),
    command: 'run() (API)',
    ...(input.cwd ? { cwd: input.cwd } : {}),
  });
}
