import { errors } from './errors.js';

// The comparison model: what `bench compare` (two results files, or two targets of one run paired by
// round) decides for each cell and metric, as its JSON output and every renderer of it read it.

/** The metrics a comparison or a history follows, and which way is better: rps higher, latencies (ms) lower. */
export const METRIC_BETTER = {
  rps: 'higher',
  mean: 'lower',
  p50: 'lower',
  p90: 'lower',
  p99: 'lower',
  p999: 'lower',
  max: 'lower',
} as const;

export type ComparableMetric = keyof typeof METRIC_BETTER;

/**
 * 'within noise': the interval does not reach beyond the noise threshold (two files: not wholly beyond it;
 * one run, paired by round: wholly inside it). 'undecided' (paired only): the interval straddles the threshold,
 * so more rounds are needed. 'no verdict': too few repeats to compute one.
 */
export type Verdict = 'improved' | 'regressed' | 'within noise' | 'undecided' | 'no verdict';

export interface SideSummary {
  /** Successful measured runs of the cell. */
  readonly n: number;
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly samples: readonly number[];
}

export interface MetricComparison {
  readonly metric: ComparableMetric;
  readonly base: SideSummary;
  readonly head: SideSummary;
  /** Change of the median, in percent of the base median. */
  readonly changePercent: number;
  /** 95% bootstrap interval of that change. */
  readonly interval?: readonly [number, number];
  readonly verdict: Verdict;
  /** Why there is no verdict. */
  readonly reason?: string;
  /** The statistical basis in one line: how many runs or rounds, which statistic, which interval. */
  readonly basis: string;
}

/**
 * One function's own CPU per request (self samples over the sampling rate and the requests), base against head. A
 * function is matched by its identity (frameIdentity: its name and file, not its line), so an edit above it in head
 * does not make it another function.
 */
export interface FunctionChange {
  /** Head's frame for it (base's when head never ran it): the line it starts on there, and the inferred mark if bench gave it samples on either side. */
  readonly name: string;
  /** The line it starts on in base, when that differs from head's. */
  readonly baseLine?: number;
  /** When one side never ran it at all (not even under another function): 'head' is new, 'base' is gone. */
  readonly onlyIn?: 'base' | 'head';
  /** Median over the runs of a side, in microseconds of CPU per request. */
  readonly baseMicros: number;
  readonly headMicros: number;
  /** Change in percent of base; absent when base never ran the function. */
  readonly changePercent?: number;
  /** 95% bootstrap interval of that change, over the rounds (paired) or the repeats (two files). */
  readonly interval?: readonly [number, number];
}

/** The server's profiles of a cell, base against head (both sides run with --profile). */
export interface ProfileComparison {
  /** The functions whose own CPU per request changed most (by microseconds, either way), largest first. */
  readonly functions: readonly FunctionChange[];
  /** Each side's profiles merged (folded stacks, deflated, base64) and the requests they served: the flame graphs. */
  readonly base: { readonly stacks: string; readonly requests: number; readonly samples: number };
  readonly head: { readonly stacks: string; readonly requests: number; readonly samples: number };
}

export interface CellComparison {
  readonly scenario: string;
  readonly target: string;
  readonly concurrency: number;
  readonly metrics: readonly MetricComparison[];
  /** Where the CPU per request moved, when both sides were profiled. */
  readonly profile?: ProfileComparison;
  /** Runs of each side whose load generator bounded them (result.limit): their verdict may compare clients, not servers. */
  readonly generatorBound?: { readonly base: number; readonly head: number; readonly baseRuns: number; readonly headRuns: number };
  /** A workload's step compared on its own (scenario reads "shop › get-item"): a part of its cell, not a cell. */
  readonly step?: string;
}

/** How many of these runs their load generator bounded; undefined when none. */
export function generatorBound(
  base: readonly { readonly limit?: { readonly by: string } | undefined }[],
  head: readonly { readonly limit?: { readonly by: string } | undefined }[],
): CellComparison['generatorBound'] {
  const bound = (runs: typeof base) => runs.filter((r) => r.limit?.by === 'generator').length;
  const counts = { base: bound(base), head: bound(head), baseRuns: base.length, headRuns: head.length };
  return counts.base + counts.head > 0 ? counts : undefined;
}

/** One line on a cell whose verdict was reached on generator-bound runs; undefined for any other cell. */
export function generatorBoundLine(cell: CellComparison): string | undefined {
  const g = cell.generatorBound;
  if (!g) return undefined;
  return `generator-bound: ${cell.scenario} ${cell.target} c=${cell.concurrency}: ${g.base} of ${g.baseRuns} base and ${g.head} of ${g.headRuns} head runs were bounded by the load generator, so the verdict may compare clients, not servers (a cheaper engine, or --client-threads, would measure the servers)`;
}

const signedPercent = (value: number) => `${value > 0 ? '+' : ''}${value.toFixed(1)}%`;

/** The function whose own CPU per request grew most (or shrank most). */
export function movedMost(profile: ProfileComparison, way: 'grew' | 'shrank'): FunctionChange | undefined {
  const sign = way === 'grew' ? 1 : -1;
  return [...profile.functions]
    .filter((f) => sign * (f.headMicros - f.baseMicros) > 0)
    .sort((a, b) => sign * (b.headMicros - b.baseMicros) - sign * (a.headMicros - a.baseMicros))[0];
}

/** Where a function started in base, when an edit moved it in head: " (line 30 in base)", else "". */
export const baseLineText = (f: FunctionChange): string => (f.baseLine !== undefined ? ` (line ${f.baseLine} in base)` : '');

/** "most of it in `parseItems server.mjs:12` (+38.0% of CPU per request, 6.7 -> 54.7 µs)". */
export function movedPhrase(f: FunctionChange): string {
  const change =
    f.changePercent !== undefined
      ? `${signedPercent(f.changePercent)} of CPU per request`
      : f.onlyIn === 'head'
        ? 'new in head'
        : 'no CPU of its own in base';
  const moved = f.baseLine !== undefined ? `; line ${f.baseLine} in base` : '';
  return `most of it in \`${f.name}\` (${change}, ${f.baseMicros.toFixed(1)} -> ${f.headMicros.toFixed(1)} µs${moved})`;
}

/** The function that moved most the way a cell's rps verdict went: the most grown if it regressed, the most shrunk if it improved. */
export function culpritOf(cell: CellComparison): FunctionChange | undefined {
  const verdict = cell.metrics.find((m) => m.metric === 'rps')?.verdict;
  if (!cell.profile || (verdict !== 'regressed' && verdict !== 'improved')) return undefined;
  return movedMost(cell.profile, verdict === 'regressed' ? 'grew' : 'shrank');
}

/** The culprit's phrase; undefined without a profile or a change. */
export function culpritPhrase(cell: CellComparison): string | undefined {
  const f = culpritOf(cell);
  return f && movedPhrase(f);
}

/** A cell's rps verdict with the function the profiles blame: "regressed -12.0% [-14.0% .. -10.0%]; most of it in ...". */
export function verdictLine(cell: CellComparison): string | undefined {
  const rps = cell.metrics.find((m) => m.metric === 'rps');
  const culprit = culpritPhrase(cell);
  if (!rps || !culprit) return undefined;
  const interval = rps.interval ? ` [${signedPercent(rps.interval[0])} .. ${signedPercent(rps.interval[1])}]` : '';
  return `${cell.scenario} ${cell.target} c=${cell.concurrency}: rps ${rps.verdict} ${signedPercent(rps.changePercent)}${interval}; ${culprit}`;
}

export interface FailIfLimit {
  readonly metric: ComparableMetric;
  readonly op: '<' | '>';
  readonly percent: number;
  readonly text: string;
}

export interface BrokenLimit {
  readonly limit: string;
  readonly scenario: string;
  readonly target: string;
  readonly concurrency: number;
  readonly changePercent: number;
}

/** A --fail-if limit that could not be checked on a cell: its metric has no verdict there. */
export interface UndecidedLimit {
  readonly limit: string;
  readonly scenario: string;
  readonly target: string;
  readonly concurrency: number;
  readonly verdict: Verdict;
  /** What to raise (repeats, rounds, time) to get a verdict. */
  readonly remedy: string;
}

export interface Comparison {
  readonly base: { readonly startedAt: string; readonly command: string };
  readonly head: { readonly startedAt: string; readonly command: string };
  readonly noisePercent: number;
  readonly cells: readonly CellComparison[];
  /** Cells in one file only, as "scenario/target c=N". */
  readonly onlyInBase: readonly string[];
  readonly onlyInHead: readonly string[];
  /** Geometric mean of head/base median rps over every compared cell. */
  readonly rpsGeometricMeanRatio?: number;
  readonly limits: readonly FailIfLimit[];
  readonly broken: readonly BrokenLimit[];
  /** Limits that could not be checked: a gate must not pass them silently. */
  readonly undecided: readonly UndecidedLimit[];
  readonly warnings: readonly string[];
  /** Set when base and head are two targets of one run, paired round by round. */
  readonly paired?: { readonly base: string; readonly head: string; readonly seed?: number };
}

const LIMIT = /^\s*([a-z0-9]+)\s*([<>])\s*([+-]?\d+(?:\.\d+)?)\s*%\s*$/;

/** "rps<-5%,p99>+10%" -> limits; each names a metric, a direction and a change in percent. */
export function parseFailIf(text: string): FailIfLimit[] {
  return text
    .split(',')
    .filter((part) => part.trim() !== '')
    .map((part) => {
      const match = LIMIT.exec(part);
      if (!match || !(match[1]! in METRIC_BETTER)) {
        throw errors.compareInput(
          `--fail-if "${part.trim()}" must look like METRIC<-N% or METRIC>+N% with METRIC one of ${Object.keys(METRIC_BETTER).join(', ')} (e.g. "rps<-5%,p99>+10%")`,
        );
      }
      return { metric: match[1] as ComparableMetric, op: match[2] as '<' | '>', percent: Number(match[3]), text: part.trim() };
    });
}
