import { workloadSteps, type Scenario, type TargetPlugin } from '@bench/core';

/** The methods of a scenario's requests that write (anything but GET and HEAD), each once. */
export function writingMethods(scenario: Scenario): string[] {
  const methods = scenario.workload ? workloadSteps(scenario.workload).map((step) => step.method) : [scenario.request.method];
  return [...new Set(methods.filter((method) => method !== 'GET' && method !== 'HEAD'))];
}

/** Takes the copy of every target's reset once, before the first cell; what it returns removes them. */
export async function prepareResets(targets: readonly TargetPlugin[]): Promise<() => Promise<void>> {
  const resets = [...new Set(targets.flatMap((target) => (target.reset ? [target.reset] : [])))];
  for (const reset of resets) await reset.prepare();
  return async () => {
    for (const reset of resets) await reset.dispose().catch(() => undefined);
  };
}

/** The note a cell gets about its target's state: reset before it, or (a cell that wrote, with no reset) seen by later cells. */
export function stateNote(target: TargetPlugin, scenario: Scenario): string | undefined {
  if (target.reset) return `state reset before this cell: ${target.reset.description}`;
  const writes = writingMethods(scenario);
  if (writes.length === 0) return undefined;
  return `this cell wrote (${writes.join(', ')} requests) and target ${target.name} names no reset: cells after it saw its writes (a target's reset: { files } or { command } restores its state before every cell)`;
}
