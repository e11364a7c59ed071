import {
  bootstrapMedianInterval,
  errors,
  median,
  MIN_PAIRED_ROUNDS,
  parseFailIf,
  type BrokenLimit,
  type CellComparison,
  type CellResult,
  type ComparableMetric,
  type Comparison,
  type MetricComparison,
  type RunDocument,
  type UndecidedLimit,
  generatorBound,
} from '@bench/core';
import { compareProfiles } from './profile-compare.js';
import { checkLimits, comparableMetrics, DEFAULT_METRICS, describeInterval, summarize, verdictOf } from './compare.js';

/** Two targets of one run: the baseline and the change (e.g. an app's main branch and its pull request). */
export interface TargetPair {
  readonly base: string;
  readonly head: string;
}

/** "app-main:app-pr" -> { base, head }. */
export function parseTargetPair(option: string, text: string): TargetPair {
  const match = /^\s*([^:\s]+)\s*:\s*([^:\s]+)\s*$/.exec(text);
  if (!match || match[1] === match[2])
    throw errors.usage(`${option} "${text}" must name two different targets of the run as BASE:HEAD, e.g. app-main:app-pr`);
  return { base: match[1]!, head: match[2]! };
}

/** The rounds in which both targets measured a (scenario, concurrency) cell successfully: base and head runs side by side. */
export interface PairedRounds {
  readonly scenario: string;
  readonly concurrency: number;
  readonly rounds: ReadonlyArray<{ readonly round: number; readonly base: CellResult; readonly head: CellResult }>;
}

export function pairRounds(doc: RunDocument, pair: TargetPair): PairedRounds[] {
  const byKey = new Map<string, { scenario: string; concurrency: number; base: Map<number, CellResult>; head: Map<number, CellResult> }>();
  for (const r of doc.results) {
    const side = r.target === pair.base ? 'base' : r.target === pair.head ? 'head' : undefined;
    if (!side || r.status !== 'ok') continue;
    const key = `${r.scenario} c=${r.concurrency}`;
    const entry = byKey.get(key) ?? { scenario: r.scenario, concurrency: r.concurrency, base: new Map(), head: new Map() };
    entry[side].set(r.repeat, r);
    byKey.set(key, entry);
  }
  return [...byKey.values()].map((e) => ({
    scenario: e.scenario,
    concurrency: e.concurrency,
    rounds: [...e.base.entries()].flatMap(([round, base]) => {
      const head = e.head.get(round);
      return head ? [{ round, base, head }] : [];
    }),
  }));
}

/**
 * One metric from per-round ratios head/base: a drift of the machine between rounds falls on both sides of
 * a round alike and cancels in its ratio. The change is the median ratio, its interval a percentile bootstrap
 * of that median; 'within noise' only when the interval lies wholly inside ±noise (tachometer's rule).
 */
export function comparePairedMetric(metric: ComparableMetric, cell: PairedRounds, noisePercent: number): MetricComparison {
  const { of, better } = comparableMetrics[metric];
  const ratios = cell.rounds.flatMap(({ base, head }) => (of(base) > 0 ? [of(head) / of(base)] : []));
  const sides = {
    metric,
    base: summarize(cell.rounds.map((r) => of(r.base))),
    head: summarize(cell.rounds.map((r) => of(r.head))),
    changePercent: ratios.length > 0 ? (median(ratios) - 1) * 100 : 0,
  };
  const rounds = `${ratios.length} round(s) paired`;
  if (ratios.length < MIN_PAIRED_ROUNDS) {
    return {
      ...sides,
      verdict: 'no verdict',
      reason: `needs at least ${MIN_PAIRED_ROUNDS} rounds in which both targets succeeded (has ${ratios.length}): run with --repeat ${MIN_PAIRED_ROUNDS} or more, or --repeat auto`,
      basis: `${rounds}: too few for an interval (${MIN_PAIRED_ROUNDS} needed)`,
    };
  }
  const [low, high] = bootstrapMedianInterval(ratios);
  const interval: [number, number] = [(low - 1) * 100, (high - 1) * 100];
  const verdict = verdictOf(interval, noisePercent, better, 'inside');
  return {
    ...sides,
    interval,
    verdict,
    ...(verdict === 'undecided'
      ? {
          reason: `the interval straddles the ±${noisePercent}% noise threshold: more rounds (--repeat auto, a higher --max-rounds or --max-time) would decide it`,
        }
      : {}),
    basis: `${rounds}, median of the per-round ratios head/base, ${describeInterval(interval)}`,
  };
}

/** Compares two targets of one run, cell by cell (scenario, concurrency), paired by round. */
export function comparePaired(
  doc: RunDocument,
  pair: TargetPair,
  options: { failIf?: string; noisePercent?: number; metrics?: readonly ComparableMetric[] } = {},
): Comparison {
  const noisePercent = options.noisePercent ?? 5;
  const limits = options.failIf ? parseFailIf(options.failIf) : [];
  const metrics = [...new Set<ComparableMetric>([...(options.metrics ?? DEFAULT_METRICS), ...limits.map((l) => l.metric)])];
  const targets = new Set(doc.results.map((r) => r.target));
  for (const name of [pair.base, pair.head])
    if (!targets.has(name))
      throw errors.compareInput(
        `the results have no target "${name}" (they hold ${[...targets].join(', ') || 'no cell'}): name one of those`,
      );
  const cells: CellComparison[] = [];
  const broken: BrokenLimit[] = [];
  const undecided: UndecidedLimit[] = [];
  const ratios: number[] = [];
  for (const paired of pairRounds(doc, pair)) {
    const bound = generatorBound(
      paired.rounds.map((r) => r.base),
      paired.rounds.map((r) => r.head),
    );
    const profile = compareProfiles(
      paired.rounds.map((r) => r.base),
      paired.rounds.map((r) => r.head),
      true,
    );
    const cell: CellComparison = {
      scenario: paired.scenario,
      target: `${pair.head} vs ${pair.base}`,
      concurrency: paired.concurrency,
      metrics: metrics.map((metric) => comparePairedMetric(metric, paired, noisePercent)),
      ...(bound ? { generatorBound: bound } : {}),
      ...(profile ? { profile } : {}),
    };
    cells.push(cell);
    const rps = cell.metrics.find((m) => m.metric === 'rps');
    if (rps && rps.base.n > 0) ratios.push(1 + rps.changePercent / 100);
    const checked = checkLimits(cell, limits, 'run more rounds: --repeat auto with a higher --max-rounds or --max-time');
    broken.push(...checked.broken);
    undecided.push(...checked.undecided);
  }
  const seed = typeof doc.options.seed === 'number' ? doc.options.seed : undefined;
  const side = { startedAt: doc.startedAt, command: doc.command };
  const saturated = doc.results.filter(
    (r) => (r.target === pair.base || r.target === pair.head) && r.notes.some((n) => n.startsWith('load generator')),
  );
  return {
    base: side,
    head: side,
    noisePercent,
    cells,
    onlyInBase: [],
    onlyInHead: [],
    ...(ratios.length > 0 ? { rpsGeometricMeanRatio: Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length) } : {}),
    limits,
    broken,
    undecided,
    warnings:
      saturated.length > 0
        ? [`the load generator was saturated in ${saturated.length} run(s): those numbers may be the client's limit`]
        : [],
    paired: { ...pair, ...(seed !== undefined ? { seed } : {}) },
  };
}
