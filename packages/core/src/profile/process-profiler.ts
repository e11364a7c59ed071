import type { FoldedStacks } from './folded-stacks.js';

export interface ProfilerContext {
  /** The run's private directory for this cell's profile files. */
  readonly dir: string;
  /** Samples a second asked for. */
  readonly hz: number;
  /** The target's folder (RunningTarget.folder): a script's frames name its file relative to it. */
  readonly folder?: string;
}

/** Sampling under way in some processes; stop() ends it and reads their stacks. */
export interface RunningProfiler {
  stop(): Promise<{ stacks: FoldedStacks; notes: string[] }>;
}

/** A profiler made ready before the warm-up; start() begins the window its samples are kept from. */
export interface PreparedProfiler {
  start(): Promise<RunningProfiler>;
  /** Gives up without a window (the cell ended before its measured run). */
  cancel(): Promise<void>;
}

/** One sampling profiler: V8's, the JDK's Flight Recorder, perf. */
export interface ProcessProfiler {
  readonly name: string;
  /**
   * Readies sampling of these processes before the cell's warm-up, so whatever starting it disturbs (a JVM
   * recompiles once the Flight Recorder starts) settles in the warm-up, not in the measured seconds.
   */
  prepare(pids: readonly number[], context: ProfilerContext): Promise<PreparedProfiler>;
}

/** A profiler that disturbs nothing by starting: it starts with the window. */
export const startingWithTheWindow = (start: () => Promise<RunningProfiler>): Promise<PreparedProfiler> =>
  Promise.resolve({ start, cancel: () => Promise.resolve() });
