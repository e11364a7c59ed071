import type { CellResult, LiveSecond, RunDocument } from '@bench/core';

/** What the first line of every journal names: the format, and its version (a reader refuses others). */
export const JOURNAL_FORMAT = 'bench-run-journal';
export const JOURNAL_VERSION = 1;

/**
 * A run journal is JSON Lines, one line written (appended, in one write) as each thing happens:
 * the run's header, each measured cell's start, each of its seconds as it closes (one thread's share of
 * that second when the engine runs on several), each cell's result, and the finished document.
 */
export type JournalLine =
  | { readonly type: 'header'; readonly format: typeof JOURNAL_FORMAT; readonly version: number; readonly document: RunDocument }
  /** A measured run starts; `unfinished` is the cell as a report shows it if the run ends during it. */
  | { readonly type: 'cell'; readonly cell: number; readonly unfinished: CellResult }
  | { readonly type: 'second'; readonly cell: number; readonly second: LiveSecond }
  | { readonly type: 'result'; readonly cell: number; readonly result: CellResult }
  | { readonly type: 'end'; readonly document: RunDocument };
