// A history of runs (JSON Lines, one measured cell a line), its series and their change points.
export * from './history-entry.js';
export { readHistory, parseHistory, type History, type DamagedLine } from './read-history.js';
export { appendHistory } from './append-history.js';
export { historyEntriesOf } from './history-entries.js';
export { readGitInfo, mergeGitInfo, commitUrl, repositoryWebUrl } from './git-info.js';
export { seriesKeyOf, seriesId, seriesLabel, machineFingerprint } from './series-key.js';
export { groupSeries, type HistoryPoint, type HistorySeries } from './history-series.js';
export {
  findHistoryChanges,
  brokenHistoryLimits,
  DEFAULT_HISTORY_METRICS,
  type HistoryChange,
  type HistoryChangeOptions,
  type SeriesChanges,
  type BrokenHistoryLimit,
} from './history-changes.js';
export { appendRunToHistory, historyFilePath, DEFAULT_HISTORY_FILE } from './run-history.js';
