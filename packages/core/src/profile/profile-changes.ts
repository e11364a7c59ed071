import type { FunctionChange, ProfileComparison } from '../comparison.js';
import { bootstrapChangeInterval, bootstrapMedianInterval, MIN_PAIRED_ROUNDS, MIN_REPEATS } from '../stats/bootstrap.js';
import { median } from '../stats/median.js';
import { decodeFoldedStacks, encodeFoldedStacks, mergeFoldedStacks, totalSamples } from './folded-stacks.js';
import { frameIdentity, INFERRED_MARK, isInferredFrame } from './frame-names.js';
import { functionCosts } from './function-costs.js';

/** One profiled run: its stacks (deflated, base64), the rate they were sampled at, and the requests it served. */
export interface ProfiledRun {
  readonly stacks: string;
  readonly hz: number;
  readonly requests: number;
}

/** The functions a comparison lists. */
const LISTED = 10;

/** A run's functions by identity: own CPU in microseconds per request, and the frames that named each (with their samples). */
interface RunCosts {
  readonly micros: Map<string, number>;
  readonly frames: Map<string, Map<string, number>>;
}

function runCosts(run: ProfiledRun): RunCosts {
  const perSample = 1_000_000 / run.hz / run.requests;
  const micros = new Map<string, number>();
  const frames = new Map<string, Map<string, number>>();
  for (const f of functionCosts(decodeFoldedStacks(run.stacks))) {
    const identity = frameIdentity(f.name);
    micros.set(identity, (micros.get(identity) ?? 0) + f.self * perSample);
    const named = frames.get(identity) ?? new Map<string, number>();
    named.set(f.name, (named.get(f.name) ?? 0) + f.total);
    frames.set(identity, named);
  }
  return { micros, frames };
}

/** The frame a side names a function by (its most sampled), and whether bench inferred any of them. */
function sideFrame(runs: readonly RunCosts[], identity: string): { frame?: string; inferred: boolean } {
  const samples = new Map<string, number>();
  for (const run of runs) for (const [frame, n] of run.frames.get(identity) ?? []) samples.set(frame, (samples.get(frame) ?? 0) + n);
  const ranked = [...samples].sort((a, b) => b[1] - a[1]);
  const inferred = ranked.some(([frame]) => isInferredFrame(frame));
  const first = ranked.find(([frame]) => !isInferredFrame(frame))?.[0] ?? ranked[0]?.[0];
  return { ...(first !== undefined ? { frame: first.replace(INFERRED_MARK, '') } : {}), inferred };
}

const lineOf = (frame: string | undefined): number | undefined => {
  const match = frame === undefined ? null : /:(\d+)$/.exec(frame);
  return match ? Number(match[1]) : undefined;
};

/** How a comparison names a function: head's frame and line (base's if head never ran it), base's line where it moved, whether it is new or gone. */
function nameOf(
  base: readonly RunCosts[],
  head: readonly RunCosts[],
  identity: string,
): Pick<FunctionChange, 'name' | 'baseLine' | 'onlyIn'> {
  const b = sideFrame(base, identity);
  const h = sideFrame(head, identity);
  const frame = h.frame ?? b.frame ?? identity;
  const baseLine = lineOf(b.frame);
  return {
    name: `${frame}${b.inferred || h.inferred ? INFERRED_MARK : ''}`,
    ...(h.frame !== undefined && baseLine !== undefined && baseLine !== lineOf(h.frame) ? { baseLine } : {}),
    ...(b.frame === undefined ? { onlyIn: 'head' as const } : h.frame === undefined ? { onlyIn: 'base' as const } : {}),
  };
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
  const baseCosts = b.map(runCosts);
  const headCosts = h.map(runCosts);
  // a function is its identity (name and file), not its line: an edit above it in head leaves it one function
  const identities = new Set([...baseCosts, ...headCosts].flatMap((costs) => [...costs.micros.keys()]));
  const valuesOf = (costs: readonly RunCosts[], identity: string) => costs.map((c) => c.micros.get(identity) ?? 0);
  const functions = [...identities]
    .map((identity) => {
      const baseValues = valuesOf(baseCosts, identity);
      const headValues = valuesOf(headCosts, identity);
      return { identity, baseValues, headValues, baseMicros: median(baseValues), headMicros: median(headValues) };
    })
    .filter((f) => f.baseMicros > 0 || f.headMicros > 0)
    .sort((x, y) => Math.abs(y.headMicros - y.baseMicros) - Math.abs(x.headMicros - x.baseMicros))
    .slice(0, LISTED)
    .map(({ identity, baseValues, headValues, baseMicros, headMicros }): FunctionChange => {
      const change = baseMicros > 0 ? { changePercent: ((headMicros - baseMicros) / baseMicros) * 100 } : {};
      return {
        ...nameOf(baseCosts, headCosts, identity),
        baseMicros,
        headMicros,
        ...change,
        ...intervalOf(baseValues, headValues, paired && b.length === h.length),
      };
    });
  return { functions, base: mergedSide(b), head: mergedSide(h) };
}
