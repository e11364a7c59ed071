import type { RunningTarget, Scenario, TargetPlugin, TargetStartOptions } from '@bench/core';

/** A built-in target's start() and startMany() from the one function that starts its stack for a list of scenarios. */
export function servesMany(
  startAll: (scenarios: readonly Scenario[], options: TargetStartOptions) => Promise<RunningTarget>,
): Required<Pick<TargetPlugin, 'start' | 'startMany'>> {
  return { start: (scenario, options) => startAll([scenario], options), startMany: startAll };
}
