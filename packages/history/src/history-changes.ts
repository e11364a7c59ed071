import { detectChangePoints, mean, METRIC_BETTER, type ChangePoint, type ChangePointOptions, type FailIfLimit } from '@bench/core';
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

export interface HistoryChangeOptions extends ChangePointOptions {
  /** Only the newest runs of each series are searched: the table of the energy statistic grows with their square. @default 1000 */
  readonly window?: number;
}

/** Change points of each metric of each series. */
export function findHistoryChanges(
  series: readonly HistorySeries[],
  metrics: readonly HistoryMetric[] = DEFAULT_HISTORY_METRICS,
  options: HistoryChangeOptions = {},
): SeriesChanges[] {
  return series.flatMap((s) =>
    metrics.map((metric) => {
      const offset = Math.max(0, s.points.length - (options.window ?? 1000));
      const values = s.points.slice(offset).map((p) => p.metrics[metric]);
      const higherIsBetter = METRIC_BETTER[metric] === 'higher';
      // Throughput and latency vary by ratios (a busier machine slows everything by some %): the test
      // runs on their logarithms, where that noise is even; sizes are told on the values themselves.
      const tested = values.every((v) => v > 0) ? values.map(Math.log) : values;
      const found = detectChangePoints(tested, options);
      const bounds = [0, ...found.map((cp) => cp.index), values.length];
      const changes = found.map((cp, i) => {
        const meanBefore = mean(values.slice(bounds[i], cp.index));
        const meanAfter = mean(values.slice(cp.index, bounds[i + 2]));
        const changePercent = meanBefore === 0 ? 0 : ((meanAfter - meanBefore) / meanBefore) * 100;
        const index = offset + cp.index;
        return {
          ...cp,
          index,
          meanBefore,
          meanAfter,
          changePercent,
          metric,
          before: s.points[index - 1]!,
          after: s.points[index]!,
          regression: higherIsBetter ? changePercent < 0 : changePercent > 0,
        };
      });
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
