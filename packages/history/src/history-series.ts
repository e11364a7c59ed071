import { median, type ProfiledRun } from '@bench/core';
import type { GitInfo, HistoryEntry, HistoryMetrics, MachineFingerprint, SeriesKey } from './history-entry.js';
import { seriesId, seriesLabel } from './series-key.js';

/** One run of one series: its repeats' medians, and the commit it measured. */
export interface HistoryPoint {
  /** When the run started (ISO 8601). */
  readonly runStartedAt: string;
  readonly git: GitInfo;
  readonly command: string;
  /** The median of each metric over the run's successful repeats of the cell. */
  readonly metrics: HistoryMetrics;
  readonly repeats: number;
  /** The profiles of the run's repeats, when they were added with them. */
  readonly profiles: readonly ProfiledRun[];
}

export interface HistorySeries {
  readonly id: string;
  /** "list-items/app c=10 autocannon", with the id added when two series would read the same. */
  readonly label: string;
  readonly key: SeriesKey;
  readonly machine: MachineFingerprint;
  /** Oldest first. */
  readonly points: readonly HistoryPoint[];
}

const METRIC_NAMES = ['rps', 'mean', 'p50', 'p90', 'p99', 'p999', 'max', 'requests', 'failed', 'non2xx'] as const;

function pointOf(entries: readonly HistoryEntry[]): HistoryPoint {
  const first = entries[0]!;
  const metrics = Object.fromEntries(METRIC_NAMES.map((name) => [name, median(entries.map((e) => e.metrics[name]))])) as HistoryMetrics;
  const profiles = entries.flatMap((e) =>
    e.profile ? [{ stacks: e.profile.stacks, hz: e.profile.hz, requests: e.metrics.requests }] : [],
  );
  return { runStartedAt: first.run.startedAt, git: first.git, command: first.run.command, metrics, repeats: entries.length, profiles };
}

/** The history's series, each a list of points (one per run, oldest first); failed cells and cells added twice are left out. */
export function groupSeries(entries: readonly HistoryEntry[]): HistorySeries[] {
  const bySeries = new Map<string, Map<string, HistoryEntry[]>>();
  const seen = new Set<string>();
  for (const entry of entries) {
    if (entry.status !== 'ok') continue;
    // the id from the entry's key and machine as this version keys them (a file written before keeps its series together)
    const series = seriesId(entry.key, entry.machine);
    // the same results file added twice counts once
    const id = `${series} ${entry.run.startedAt} ${entry.run.repeat}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const runs = bySeries.get(series) ?? new Map<string, HistoryEntry[]>();
    bySeries.set(series, runs);
    runs.set(entry.run.startedAt, [...(runs.get(entry.run.startedAt) ?? []), entry]);
  }
  const series = [...bySeries.entries()].map(([id, runs]) => {
    const points = [...runs.values()].map(pointOf);
    // stable: runs with the same start time keep the order they were appended in
    points.sort((a, b) => Date.parse(a.runStartedAt) - Date.parse(b.runStartedAt));
    const first = [...runs.values()][0]![0]!;
    return { id, label: seriesLabel(first.key), key: first.key, machine: first.machine, points };
  });
  const counts = new Map<string, number>();
  for (const s of series) counts.set(s.label, (counts.get(s.label) ?? 0) + 1);
  return series
    .map((s) => ((counts.get(s.label) ?? 0) > 1 ? { ...s, label: `${s.label} [${s.id}]` } : s))
    .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}
