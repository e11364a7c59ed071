import {
  bootstrapChangeInterval,
  bootstrapMedianInterval,
  decodeFoldedStacks,
  encodeFoldedStacks,
  functionCosts,
  median,
  mergeFoldedStacks,
  MIN_PAIRED_ROUNDS,
  MIN_REPEATS,
  totalSamples,
  type CellResult,
  type FunctionChange,
  type ProfileComparison,
} from '@bench/core';

/** The functions a comparison lists. */
const LISTED = 10;

type Profiled = CellResult & { profile: NonNullable<CellResult['profile']> };
const profiled = (r: CellResult): r is Profiled => r.profile !== undefined && r.requests > 0;

/** Each function's own CPU in one run, in microseconds per request. */
function microsPerRequest(r: Profiled): Map<string, number> {
  const perSample = 1_000_000 / r.profile.hz / r.requests;
  return new Map(functionCosts(decodeFoldedStacks(r.profile.stacks)).map((f) => [f.name, f.self * perSample]));
}

function sideStacks(runs: readonly Profiled[]): ProfileComparison['base'] {
  const stacks = mergeFoldedStacks(runs.map((r) => decodeFoldedStacks(r.profile.stacks)));
  return { stacks: encodeFoldedStacks(stacks), requests: runs.reduce((sum, r) => sum + r.requests, 0), samples: totalSamples(stacks) };
}

/**
 * Where the server's CPU per request moved between base and head runs of one cell (every run profiled): the
 * functions whose own CPU per request changed most, each with its interval: over rounds' ratios when `paired`
 * (base[i] and head[i] ran in one round), else of the change of the medians of the repeats.
 */
export function compareProfiles(base: readonly CellResult[], head: readonly CellResult[], paired: boolean): ProfileComparison | undefined {
  const b = base.filter(profiled);
  const h = head.filter(profiled);
  if (b.length === 0 || h.length === 0 || b.length !== base.length || h.length !== head.length) return undefined;
  const baseCosts = b.map(microsPerRequest);
  const headCosts = h.map(microsPerRequest);
  const names = new Set([...baseCosts, ...headCosts].flatMap((costs) => [...costs.keys()]));
  const valuesOf = (costs: readonly Map<string, number>[], name: string) => costs.map((c) => c.get(name) ?? 0);
  const changes = [...names].map((name) => {
    const baseValues = valuesOf(baseCosts, name);
    const headValues = valuesOf(headCosts, name);
    return { name, baseValues, headValues, baseMicros: median(baseValues), headMicros: median(headValues) };
  });
  const functions = changes
    .sort((x, y) => Math.abs(y.headMicros - y.baseMicros) - Math.abs(x.headMicros - x.baseMicros))
    .slice(0, LISTED)
    .map(({ name, baseValues, headValues, baseMicros, headMicros }): FunctionChange => {
      const change = baseMicros > 0 ? { changePercent: ((headMicros - baseMicros) / baseMicros) * 100 } : {};
      return { name, baseMicros, headMicros, ...change, ...intervalOf(baseValues, headValues, paired) };
    });
  return { functions, base: sideStacks(b), head: sideStacks(h) };
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
