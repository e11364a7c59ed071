import {
  errors,
  onDatabase,
  protocolWords,
  type DatabaseChoice,
  speaksProtocol,
  type Availability,
  type Scenario,
  type Support,
  type TargetPlugin,
} from '@bench/core';
import type { RunOptions } from '../options/declarations.js';

export interface PlannedPair {
  readonly scenario: Scenario;
  readonly target: TargetPlugin;
}

export interface Skipped {
  readonly scenario: string;
  readonly target: string;
  readonly reason: string;
  /** Not installed here (its system packages are missing), or installed but unable to serve this scenario. */
  readonly kind: 'unavailable' | 'unsupported';
}

export interface Plan {
  readonly pairs: readonly PlannedPair[];
  readonly concurrency: readonly number[];
  readonly skipped: readonly Skipped[];
  readonly availability: ReadonlyMap<string, Availability>;
}

/** The scenarios by name, each on the run's database (--db). */
export function resolveScenarios(names: readonly string[], all: readonly Scenario[], database: DatabaseChoice = 'mariadb'): Scenario[] {
  const byName = new Map(all.map((s) => [s.name, s]));
  return names.map((name) => {
    const scenario = byName.get(name);
    if (!scenario) throw errors.unknownScenario(name, [...byName.keys()]);
    return onDatabase(scenario, database);
  });
}

export function resolveTargets(names: readonly string[], registry: readonly TargetPlugin[]): TargetPlugin[] {
  const byName = new Map(registry.map((t) => [t.name, t]));
  return names.map((name) => {
    const target = byName.get(name);
    if (!target) throw errors.unknownTarget(name, [...byName.keys()]);
    return target;
  });
}

/**
 * Scenario x target pairs to run. A target named with -t must be available (else an error that
 * says what to install); without -t, unavailable targets are skipped and listed.
 */
export async function makePlan(options: RunOptions, registry: readonly TargetPlugin[], allScenarios: readonly Scenario[]): Promise<Plan> {
  const scenarios = resolveScenarios(options.scenarios, allScenarios, options.db);
  const explicit = options.targets !== undefined && options.targets.length > 0;
  const targets = explicit ? resolveTargets(options.targets ?? [], registry) : [...registry];
  const availability = new Map<string, Availability>();
  for (const target of targets) availability.set(target.name, await target.available());

  const pairs: PlannedPair[] = [];
  const skipped: Skipped[] = [];
  for (const scenario of scenarios) {
    for (const target of targets) {
      const available = availability.get(target.name);
      if (!available?.ok) {
        if (explicit) throw errors.targetUnavailable(target.name, available?.reason ?? 'unknown reason');
        skipped.push({ scenario: scenario.name, target: target.name, reason: available?.reason ?? 'not available', kind: 'unavailable' });
        continue;
      }
      // a target is skipped for a protocol its server cannot serve here, as for a scenario it cannot
      const protocol = options.protocol;
      const support: Support = !speaksProtocol(target, protocol)
        ? { ok: false, reason: `it does not serve ${protocolWords[protocol]}${target.protocolsNote ? `: ${target.protocolsNote}` : ''}` }
        : target.supports(scenario);
      if (!support.ok) {
        skipped.push({ scenario: scenario.name, target: target.name, reason: support.reason, kind: 'unsupported' });
        continue;
      }
      pairs.push({ scenario, target });
    }
  }
  if (pairs.length === 0) {
    const why = skipped.map((s) => `${s.target}/${s.scenario}: ${s.reason}`).join('; ');
    throw errors.nothingToRun(`no target can run ${scenarios.map((s) => s.name).join(', ')}${why ? ` (${why})` : ''}; see \`bench list\``);
  }
  return { pairs, concurrency: options.concurrency, skipped, availability };
}
