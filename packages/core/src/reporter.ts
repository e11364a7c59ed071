import type { CellResult, RunDocument } from './result.js';

/** What a reporter is handed when it is built. */
export interface ReporterContext {
  /** File the user asked this reporter to write (`--out`); absent means standard output. */
  readonly outFile?: string;
  /** Options from the config's `[name, options]` and from `--reporter-option key=value` (strings). */
  readonly options: Readonly<Record<string, unknown>>;
  /** Writes text to standard output (use it when outFile is absent). */
  readonly stdout: (text: string) => void;
  /** Parts of the report that plugins contribute (a suite's article tables); reporters that show sections add them. */
  readonly sections?: readonly ReportSection[];
}

/** A part of a report contributed by a plugin, for the runs it has something to say of (a suite: its article's tables). */
export interface ReportSection {
  readonly name: string;
  /** The section as markdown for this run, or undefined when it has nothing to say of it. */
  markdown(run: RunDocument): string | undefined;
  /** The section as HTML for the run's page, above the run's own report; undefined for none. */
  html?(run: RunDocument): string | undefined | Promise<string | undefined>;
}

/** A reporter: optional hooks, each may be async. The run waits for every hook. */
export interface Reporter {
  readonly name?: string;
  /** Called once before the first cell, with the document as it stands (no results yet). */
  onRunStart?(run: RunDocument): void | Promise<void>;
  /** Called when a cell (scenario x target x concurrency) has finished, failed cells included. */
  onResult?(result: CellResult, run: RunDocument): void | Promise<void>;
  /** Called once at the end, also after an interruption (then run.complete is false). */
  onRunEnd?(run: RunDocument): void | Promise<void>;
}

/** A module's default export may be a reporter or a factory building one. */
export type ReporterFactory = (context: ReporterContext) => Reporter | Promise<Reporter>;
