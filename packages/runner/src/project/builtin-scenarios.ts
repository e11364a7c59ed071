import { createRequire } from 'node:module';
import path from 'node:path';
import { loadScenarios, type Scenario } from '@bench/core';

const require = createRequire(import.meta.url);

/** The folder of bench's own scenarios (the @bench/scenarios package), or BENCH_SCENARIOS_DIR in its place. */
export function builtinScenariosDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BENCH_SCENARIOS_DIR) return path.resolve(env.BENCH_SCENARIOS_DIR);
  return path.dirname(require.resolve('@bench/scenarios/package.json'));
}

export function builtinScenarios(): Scenario[] {
  return loadScenarios(builtinScenariosDir());
}
