import {
  bootstrapChangeInterval,
  engineOf,
  generatorBound,
  errors,
  median,
  stepCells,
  METRIC_BETTER,
  parseFailIf,
  MIN_REPEATS,
  type BrokenLimit,
  type CellComparison,
  type CellResult,
  type ComparableMetric,
  type Comparison,
  type FailIfLimit,
  type MetricComparison,
  type RunDocument,
  type SideSummary,
  type UndecidedLimit,
  type Verdict,
} from '@bench/core';
import { compareProfiles } from './profile-compare.js';

/** How each comparable metric is read from a cell. */
export const comparableMetrics = {
  rps: { better: METRIC_BETTER.rps, of: (r: CellResult) => r.rps },
  mean: { better: METRIC_BETTER.mean, of: (r: CellResult) => r.latency.mean },
  p50: { better: METRIC_BETTER.p50, of: (r: CellResult) => r.latency.p50 },
  p90: { better: METRIC_BETTER.p90, of: (r: CellResult) => r.latency.p90 },
  p99: { better: METRIC_BETTER.p99, of: (r: CellResult) => r.latency.p99 },
  p999: { better: METRIC_BETTER.p999, of: (r: CellResult) => r.latency.p999 },
  max: { better: METRIC_BETTER.max, of: (r: CellResult) => r.latency.max },
} as const satisfies Record<ComparableMetric, { better: 'higher' | 'lower'; of: (r: CellResult) => number }>;

export const DEFAULT_METRICS: readonly ComparableMetric[] = ['rps', 'p50', 'p99'];

/** "2%" or "2" -> 2. */
export function parsePercent(option: string, text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(text);
  if (!match) throw errors.compareInput(`${option} "${text}" must be a percentage such as 2%`);
  return Number(match[1]);
}

export const cellKey = (r: Pick<CellResult, 'scenario' | 'target' | 'concurrency'>) => `${r.scenario}/${r.target} c=${r.concurrency}`;

// the step cells of the documents compared, and their step names
const stepNames = new WeakMap<CellResult, string>();

function groupCells(doc: RunDocument): Map<string, CellResult[]> {
  const groups = new Map<string, CellResult[]>();
  // a workload's steps compare as cells of their own: "shop › get-item/app c=10"
  const cells = doc.results.flatMap((r) => [
    r,
    ...stepCells(r, (step) => `${r.scenario} › ${step}`).map((cell, i) => {
      stepNames.set(cell, r.steps![i]!.name);
      return cell;
    }),
  ]);
  for (const r of cells) groups.set(cellKey(r), [...(groups.get(cellKey(r)) ?? []), r]);
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
    const bound = generatorBound(baseRuns, headRuns);
    const profile = compareProfiles(
      baseRuns.filter((r) => r.status === 'ok'),
      headRuns.filter((r) => r.status === 'ok'),
      false,
    );
    const step = stepNames.get(first);
    cells.push({
      ...(step !== undefined ? { step } : {}),
      scenario: first.scenario,
      target: first.target,
      concurrency: first.concurrency,
      metrics: compared,
      ...(bound ? { generatorBound: bound } : {}),
      ...(profile ? { profile } : {}),
    });
    const rps = compared.find((m) => m.metric === 'rps');
    // the geometric mean is over cells: a workload's steps are parts of their cell's rate
    if (rps && rps.base.median > 0 && rps.head.n > 0 && step === undefined) ratios.push(rps.head.median / rps.base.median);
    const checked = checkLimits(cells.at(-1)!, limits, `run with --repeat ${MIN_REPEATS} or more`);
    broken.push(...checked.broken);
    undecided.push(...checked.undecided);
  }
  const warnings: string[] = [];
  const enginesOf = (doc: RunDocument) => [...new Set(doc.results.map(engineOf))].join(',');
  if (enginesOf(base) !== enginesOf(head))
    warnings.push(`the files were measured with different engines (${enginesOf(base)} and ${enginesOf(head)})`);
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
