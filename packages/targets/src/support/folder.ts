import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Scenario, ScenarioFolder, Support } from '@bench/core';

/** Why a reference stack cannot serve a request scenario. */
export const NOT_A_FOLDER: Support = {
  ok: false,
  reason: "a request scenario is a route of an app's own server; the reference stacks serve folder scenarios (with handlers) only",
};

/** The scenario's folder; a target's supports() has already said it has one. */
export function folderOf(scenario: Scenario): ScenarioFolder {
  // internal: supports() refuses a scenario without a folder before start() can reach here
  if (!scenario.folder) throw new Error(`scenario ${scenario.name} has no folder (handlers and fixtures)`);
  return scenario.folder;
}

/** Whether the scenario's folder holds the handler file a stack runs; a static scenario needs none (the web server sends its file). */
export function handlerSupport(scenario: Scenario, file: string, missing = `the scenario has no ${file}`): Support {
  if (!scenario.folder) return NOT_A_FOLDER;
  if (scenario.folder.kind === 'static' || existsSync(path.join(scenario.folder.dir, file))) return { ok: true };
  return { ok: false, reason: missing };
}
