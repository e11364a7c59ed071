import type { RunOptionInput } from '../options/declarations.js';
import type { CommandTargetConfig, ReporterConfigEntry, ScenarioConfigEntry, UrlTargetConfig } from './schema.js';
import type { ThresholdsSpec } from '@bench/compare';

/** What bench.config.{ts,mts,mjs,js,json} exports: plain data. */
export interface BenchConfig {
  /** Built-in target names, `{ name, command, ... }` (your server, started by bench), `{ name, url }` (already running), or module paths. */
  readonly targets?: ReadonlyArray<string | CommandTargetConfig | UrlTargetConfig>;
  /** Scenario folder paths, built-in scenario names, or request specs `{ name, path, method?, headers?, body?, expect? }`. */
  readonly scenarios?: readonly ScenarioConfigEntry[];
  /** As --reporter: a name, a module path, or [nameOrPath, options]; an `out` option does what --out does. */
  readonly reporters?: readonly ReporterConfigEntry[];
  /** Any `bench run` option, named as in a results file's `options`; flags override these. */
  readonly defaults?: RunOptionInput;
  /** k6-style limits per "scenario", "scenario/target", "*\/target" or "*": a run that breaks one exits 1. */
  readonly thresholds?: ThresholdsSpec;
}

export { secret } from '@bench/core';

/** Types a config file; returns it unchanged. */
export function defineConfig(config: BenchConfig): BenchConfig {
  return config;
}
