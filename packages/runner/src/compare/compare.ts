import { bootstrapChangeInterval, errors, median, MIN_REPEATS, type CellResult, type RunDocument } from '@bench/core';

/** Metrics a comparison can show: rps (higher is better) and latencies in ms (lower is better). */
export const comparableMetrics = {
  rps: { better: 'higher', of: (r: CellResult) => r.rps },
  mean: { better: 'lower', of: (r: CellResult) => r.latency.mean },
  p50: { better: 'lower', of: (r: CellResult) => r.latency.p50 },
  p90: { better: 'lower', of: (r: CellResult) => r.latency.p90 },
  p99: { better: 'lower', of: (r: CellResult) => r.latency.p99 },
  p999: { better: 'lower', of: (r: CellResult) => r.latency.p999 },
  max: { better: 'lower', of: (r: CellResult) => r.latency.max },
} as const;

export type ComparableMetric = keyof typeof comparableMetrics;
export const DEFAULT_METRICS: readonly ComparableMetric[] = ['rps', 'p50', 'p99'];

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
      if (!match || !(match[1]! in comparableMetrics)) {
        throw errors.compareInput(
          `--fail-if "${part.trim()}" must look like METRIC<-N% or METRIC>+N% with METRIC one of ${Object.keys(comparableMetrics).join(', ')} (e.g. "rps<-5%,p99>+10%")`,
        );
      }
      return { metric: match[1] as ComparableMetric, op: match[2] as '<' | '>', percent: Number(match[3]), text: part.trim() };
    });
}

/** "2%" or "2" -> 2. */
export function parsePercent(option: string, text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(text);
  if (!match) throw errors.compareInput(`${option} "${text}" must be a percentage such as 2%`);
  return Number(match[1]);
}

export const cellKey = (r: Pick<CellResult, 'scenario' | 'target' | 'concurrency'>) => `${r.scenario}/${r.target} c=${r.concurrency}`;

function groupCells(doc: RunDocument): Map<string, CellResult[]> {
  const groups = new Map<string, CellResult[]>();
  for (const r of doc.results) groups.set(cellKey(r), [...(groups.get(cellKey(r)) ?? []), r]);
  return groups;
}

export function summarize(samples: readonly number[]): SideSummary {
  return { n: samples.length, median: samples.length ? median(samples) : 0, min: Math.min(...samples), max: Math.max(...samples), samples };
}

function compareMetric(
  metric: ComparableMetric,
  base: readonly CellResult[],
  head: readonly CellResult[],
  noisePercent: number,
): MetricComparison {
  const { of, better } = comparableMetrics[metric];
  const b = summarize(base.filter((r) => r.status === 'ok').map(of));
  const h = summarize(head.filter((r) => r.status === 'ok').map(of));
  const changePercent = b.median === 0 ? 0 : ((h.median - b.median) / b.median) * 100;
  const sides = { metric, base: b, head: h, changePercent };
  const runs = `${b.n} base and ${h.n} head runs`;
  if (b.n < MIN_REPEATS || h.n < MIN_REPEATS) {
    return {
      ...sides,
      verdict: 'no verdict',
      reason: `needs at least ${MIN_REPEATS} successful repeats a side (has ${b.n} and ${h.n}): run with --repeat ${MIN_REPEATS} or more`,
      basis: `${runs}: too few for an interval (${MIN_REPEATS} a side needed)`,
    };
  }
  const interval = bootstrapChangeInterval(b.samples, h.samples);
  // criterion's rule: a change counts only when its whole interval lies beyond the noise threshold
  const verdict = verdictOf(interval, noisePercent, better, 'beyond');
  return { ...sides, interval, verdict, basis: `${runs}, change of the medians, ${describeInterval(interval)}` };
}

const signed = (value: number) => `${value > 0 ? '+' : ''}${value.toFixed(1)}%`;

/** "95% bootstrap interval -8.1% .. -4.0%". */
export const describeInterval = (interval: readonly [number, number]) =>
  `95% bootstrap interval ${signed(interval[0])} .. ${signed(interval[1])}`;

/**
 * A verdict from an interval of a change (in %): 'beyond' (two files, criterion) calls anything not wholly
 * beyond the noise 'within noise'; 'inside' (paired rounds, tachometer) asks for the interval wholly inside
 * ±noise before it says so, and calls an interval that straddles the threshold 'undecided'.
 */
export function verdictOf(
  [low, high]: readonly [number, number],
  noisePercent: number,
  better: 'higher' | 'lower',
  rule: 'beyond' | 'inside',
): Verdict {
  const up = low > noisePercent;
  const down = high < -noisePercent;
  if (up || down) return (up ? better === 'higher' : better === 'lower') ? 'improved' : 'regressed';
  if (rule === 'beyond' || (low >= -noisePercent && high <= noisePercent)) return 'within noise';
  return 'undecided';
}

/** The limits a compared cell breaks (a decided change beyond the limit), and those it cannot check (no verdict). */
export function checkLimits(
  cell: CellComparison,
  limits: readonly FailIfLimit[],
  remedy: string,
): { broken: BrokenLimit[]; undecided: UndecidedLimit[] } {
  const broken: BrokenLimit[] = [];
  const undecided: UndecidedLimit[] = [];
  const where = { scenario: cell.scenario, target: cell.target, concurrency: cell.concurrency };
  for (const limit of limits) {
    const m = cell.metrics.find((c) => c.metric === limit.metric);
    if (!m) continue;
    if (m.verdict === 'no verdict' || m.verdict === 'undecided') {
      undecided.push({ limit: limit.text, ...where, verdict: m.verdict, remedy: m.reason ?? remedy });
      continue;
    }
    if (m.verdict !== 'regressed' && m.verdict !== 'improved') continue;
    const beyond = limit.op === '<' ? m.changePercent < limit.percent : m.changePercent > limit.percent;
    if (beyond) broken.push({ limit: limit.text, ...where, changePercent: m.changePercent });
  }
  return { broken, undecided };
}

/** Compares two results files cell by cell (scenario, target, concurrency present in both). */
export function compare(base: RunDocument, head: RunDocument, options: { failIf?: string; noisePercent?: number } = {}): Comparison {
  const noisePercent = options.noisePercent ?? 5;
  const limits = options.failIf ? parseFailIf(options.failIf) : [];
  const metrics = [...new Set<ComparableMetric>([...DEFAULT_METRICS, ...limits.map((l) => l.metric)])];
  const baseCells = groupCells(base);
  const headCells = groupCells(head);
  const cells: CellComparison[] = [];
  const broken: BrokenLimit[] = [];
  const undecided: UndecidedLimit[] = [];
  const ratios: number[] = [];
  for (const [key, baseRuns] of baseCells) {
    const headRuns = headCells.get(key);
    const first = baseRuns[0];
    if (!headRuns || !first) continue;
    const compared = metrics.map((metric) => compareMetric(metric, baseRuns, headRuns, noisePercent));
    cells.push({ scenario: first.scenario, target: first.target, concurrency: first.concurrency, metrics: compared });
    const rps = compared.find((m) => m.metric === 'rps');
    if (rps && rps.base.median > 0 && rps.head.n > 0) ratios.push(rps.head.median / rps.base.median);
    const checked = checkLimits(cells.at(-1)!, limits, `run with --repeat ${MIN_REPEATS} or more`);
    broken.push(...checked.broken);
    undecided.push(...checked.undecided);
  }
  const warnings: string[] = [];
  const engineOf = (doc: RunDocument) => [...new Set(doc.results.map((r) => r.engine?.name ?? 'autocannon'))].join(',');
  if (engineOf(base) !== engineOf(head))
    warnings.push(`the files were measured with different engines (${engineOf(base)} and ${engineOf(head)})`);
  if (base.machine.cpuModel !== head.machine.cpuModel || base.machine.cpus !== head.machine.cpus)
    warnings.push('the files come from different machines');
  for (const [name, doc] of [
    ['base', base],
    ['head', head],
  ] as const) {
    const saturated = doc.results.filter((r) => r.notes.some((n) => n.startsWith('load generator')));
    if (saturated.length > 0)
      warnings.push(`${name}: the load generator was saturated in ${saturated.length} run(s): those numbers may be the client's limit`);
  }
  return {
    base: { startedAt: base.startedAt, command: base.command },
    head: { startedAt: head.startedAt, command: head.command },
    noisePercent,
    cells,
    onlyInBase: [...baseCells.keys()].filter((k) => !headCells.has(k)),
    onlyInHead: [...headCells.keys()].filter((k) => !baseCells.has(k)),
    ...(ratios.length > 0 ? { rpsGeometricMeanRatio: Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length) } : {}),
    limits,
    broken,
    undecided,
    warnings,
  };
}
