import { comparableMetrics, type FailIfLimit } from '../compare/compare.js';
import { detectChangePoints, type ChangePoint, type ChangePointOptions } from './e-divisive.js';
import type { HistoryMetric } from './history-entry.js';
import type { HistoryPoint, HistorySeries } from './history-series.js';

/** A change point of one metric of one series, placed between two runs (and so between two commits). */
export interface HistoryChange extends ChangePoint {
  readonly metric: HistoryMetric;
  /** The last run before the change and the first after it. */
  readonly before: HistoryPoint;
  readonly after: HistoryPoint;
  /** Worse for users: fewer requests per second, or more latency. */
  readonly regression: boolean;
}

export interface SeriesChanges {
  readonly series: HistorySeries;
  readonly metric: HistoryMetric;
  readonly changes: readonly HistoryChange[];
}

export const DEFAULT_HISTORY_METRICS: readonly HistoryMetric[] = ['rps', 'p99'];

/** Change points of each metric of each series. */
export function findHistoryChanges(
  series: readonly HistorySeries[],
  metrics: readonly HistoryMetric[] = DEFAULT_HISTORY_METRICS,
  options: ChangePointOptions = {},
): SeriesChanges[] {
  return series.flatMap((s) =>
    metrics.map((metric) => {
      const values = s.points.map((p) => p.metrics[metric]);
      const higherIsBetter = comparableMetrics[metric].better === 'higher';
      const changes = detectChangePoints(values, options).map((cp) => ({
        ...cp,
        metric,
        before: s.points[cp.index - 1]!,
        after: s.points[cp.index]!,
        regression: higherIsBetter ? cp.changePercent < 0 : cp.changePercent > 0,
      }));
      return { series: s, metric, changes };
    }),
  );
}

export interface BrokenHistoryLimit {
  readonly limit: string;
  readonly series: HistorySeries;
  readonly change: HistoryChange;
}

/** The series whose newest change point of a limit's metric is a regression beyond that limit. */
export function brokenHistoryLimits(found: readonly SeriesChanges[], limits: readonly FailIfLimit[]): BrokenHistoryLimit[] {
  return limits.flatMap((limit) =>
    found
      .filter((f) => f.metric === limit.metric && f.changes.length > 0)
      .flatMap((f) => {
        const newest = f.changes[f.changes.length - 1]!;
        const beyond = limit.op === '<' ? newest.changePercent < limit.percent : newest.changePercent > limit.percent;
        return newest.regression && beyond ? [{ limit: limit.text, series: f.series, change: newest }] : [];
      }),
  );
}
