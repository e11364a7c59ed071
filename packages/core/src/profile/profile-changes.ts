import type { FunctionChange, ProfileComparison } from '../comparison.js';
import { bootstrapChangeInterval, bootstrapMedianInterval, MIN_PAIRED_ROUNDS, MIN_REPEATS } from '../stats/bootstrap.js';
import { median } from '../stats/median.js';
import { decodeFoldedStacks, encodeFoldedStacks, mergeFoldedStacks, totalSamples } from './folded-stacks.js';
import { functionCosts } from './function-costs.js';

/** One profiled run: its stacks (deflated, base64), the rate they were sampled at, and the requests it served. */
export interface ProfiledRun {
  readonly stacks: string;
  readonly hz: number;
  readonly requests: number;
}

/** The functions a comparison lists. */
const LISTED = 10;

/** Each function's own CPU in one run, in microseconds per request. */
function microsPerRequest(run: ProfiledRun): Map<string, number> {
  const perSample = 1_000_000 / run.hz / run.requests;
  return new Map(functionCosts(decodeFoldedStacks(run.stacks)).map((f) => [f.name, f.self * perSample]));
}

/** A side's runs merged: their stacks summed, the requests they served. */
export function mergedSide(runs: readonly ProfiledRun[]): ProfileComparison['base'] {
  const stacks = mergeFoldedStacks(runs.map((r) => decodeFoldedStacks(r.stacks)));
  return { stacks: encodeFoldedStacks(stacks), requests: runs.reduce((sum, r) => sum + r.requests, 0), samples: totalSamples(stacks) };
}

function intervalOf(base: readonly number[], head: readonly number[], paired: boolean): { interval?: [number, number] } {
  if (paired) {
    const ratios = base.flatMap((value, i) => (value > 0 ? [(head[i] ?? 0) / value] : []));
    if (ratios.length < MIN_PAIRED_ROUNDS) return {};
    const [low, high] = bootstrapMedianInterval(ratios);
    return { interval: [(low - 1) * 100, (high - 1) * 100] };
  }
  if (base.length < MIN_REPEATS || head.length < MIN_REPEATS || median(base) === 0) return {};
  return { interval: bootstrapChangeInterval(base, head) };
}

/**
 * Where the CPU per request moved between base and head runs: the functions whose own CPU per request changed most
 * (by microseconds, either way), each with its interval, over the rounds' ratios when `paired` (base[i] and head[i]
 * ran in one round), else of the change of the medians.
 */
export function compareProfiledRuns(
  base: readonly ProfiledRun[],
  head: readonly ProfiledRun[],
  paired: boolean,
): ProfileComparison | undefined {
  const b = base.filter((r) => r.requests > 0);
  const h = head.filter((r) => r.requests > 0);
  if (b.length === 0 || h.length === 0) return undefined;
  const baseCosts = b.map(microsPerRequest);
  const headCosts = h.map(microsPerRequest);
  const names = new Set([...baseCosts, ...headCosts].flatMap((costs) => [...costs.keys()]));
  const valuesOf = (costs: readonly Map<string, number>[], name: string) => costs.map((c) => c.get(name) ?? 0);
  const functions = [...names]
    .map((name) => {
      const baseValues = valuesOf(baseCosts, name);
      const headValues = valuesOf(headCosts, name);
      return { name, baseValues, headValues, baseMicros: median(baseValues), headMicros: median(headValues) };
    })
    .sort((x, y) => Math.abs(y.headMicros - y.baseMicros) - Math.abs(x.headMicros - x.baseMicros))
    .slice(0, LISTED)
    .map(({ name, baseValues, headValues, baseMicros, headMicros }): FunctionChange => {
      const change = baseMicros > 0 ? { changePercent: ((headMicros - baseMicros) / baseMicros) * 100 } : {};
      return { name, baseMicros, headMicros, ...change, ...intervalOf(baseValues, headValues, paired && b.length === h.length) };
    });
  return { functions, base: mergedSide(b), head: mergedSide(h) };
}
