import {
  decodeFoldedStacks,
  functionCosts,
  INFERRED_MARK,
  isInferredFrame,
  mergeFoldedStacks,
  totalSamples,
  type CellResult,
  type FoldedStacks,
} from '@bench/core';

/** The profiles of one cell's repeats merged: their stacks summed, the profilers and notes named once. */
export interface MergedProfile {
  readonly label: string;
  readonly stacks: FoldedStacks;
  readonly samples: number;
  readonly runs: number;
  /** "v8 (1 process) at 99 Hz, 3 runs": what took it. */
  readonly source: string;
  readonly notes: readonly string[];
}

/** Every profiled cell of these results, repeats of a cell merged, in the results' order. */
export function mergedProfiles(results: readonly CellResult[]): MergedProfile[] {
  const groups = new Map<string, CellResult[]>();
  for (const r of results) {
    if (!r.profile) continue;
    const key = `${r.scenario}\u0000${r.target}\u0000${r.concurrency}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map((runs) => {
    const first = runs[0] as CellResult & { profile: NonNullable<CellResult['profile']> };
    const stacks = mergeFoldedStacks(runs.map((r) => (r.profile ? decodeFoldedStacks(r.profile.stacks) : new Map())));
    const profilers = [...new Set(runs.flatMap((r) => r.profile?.profilers ?? []))].join(', ') || 'no profiler';
    return {
      label: `${first.scenario} ${first.target} c=${first.concurrency}`,
      stacks,
      samples: totalSamples(stacks),
      runs: runs.length,
      source: `${profilers} at ${first.profile.hz} Hz${runs.length > 1 ? `, ${runs.length} runs merged` : ''}`,
      notes: [...new Set(runs.flatMap((r) => r.profile?.notes ?? []))],
    };
  });
}

export interface TopFunction {
  readonly name: string;
  readonly selfPercent: number;
  readonly totalPercent: number;
}

/** The functions that took the most CPU themselves (self), with their share of the samples, self and total. */
export function topFunctions(stacks: FoldedStacks, count = 10): TopFunction[] {
  const samples = totalSamples(stacks);
  if (samples === 0) return [];
  return functionCosts(stacks)
    .slice(0, count)
    .map((f) => ({ name: f.name, selfPercent: (100 * f.self) / samples, totalPercent: (100 * f.total) / samples }));
}

export const percentText = (value: number): string => `${value.toFixed(1)}%`;

/** The line every view shows under functions of which some carry the inferred mark (`drawn`: how a graph shows them); undefined when none does. */
export function inferredLegend(names: readonly string[], drawn?: string): string | undefined {
  if (!names.some(isInferredFrame)) return undefined;
  return `${INFERRED_MARK.trim()}${drawn ? ` (${drawn})` : ''}: V8 had inlined this function into its caller; bench gave it back the samples on its lines (a call by name from the caller, in the caller's file)`;
}
