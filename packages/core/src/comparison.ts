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

export interface CellComparison {
  readonly scenario: string;
  readonly target: string;
  readonly concurrency: number;
  readonly metrics: readonly MetricComparison[];
  /** Runs of each side whose load generator bounded them (result.limit): their verdict may compare clients, not servers. */
  readonly generatorBound?: { readonly base: number; readonly head: number; readonly baseRuns: number; readonly headRuns: number };
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
