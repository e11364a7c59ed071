import type { CellResult, RunDocument } from './result.js';

/** What a reporter is handed when it is built. */
export interface ReporterContext {
  /** File the user asked this reporter to write (`--out`); absent means standard output. */
  readonly outFile?: string;
  /** Options from the config's `[name, options]` and from `--reporter-option key=value` (strings). */
  readonly options: Readonly<Record<string, unknown>>;
  /** Writes text to standard output (use it when outFile is absent). */
  readonly stdout: (text: string) => void;
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
