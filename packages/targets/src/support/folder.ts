import type { Scenario, ScenarioFolder, Support } from '@bench/core';

/** Why a reference stack cannot serve a request scenario. */
export const NOT_A_FOLDER: Support = {
  ok: false,
  reason: "a request scenario is a route of an app's own server; the reference stacks serve folder scenarios (with handlers) only",
};

/** The scenario's folder; a target's supports() has already said it has one. */
export function folderOf(scenario: Scenario): ScenarioFolder {
  if (!scenario.folder) throw new Error(`scenario ${scenario.name} has no folder (handlers and fixtures)`);
  return scenario.folder;
}
