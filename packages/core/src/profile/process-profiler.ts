import type { FoldedStacks } from './folded-stacks.js';

export interface ProfilerContext {
  /** The run's private directory for this cell's profile files. */
  readonly dir: string;
  /** Samples a second asked for. */
  readonly hz: number;
}

/** Sampling under way in some processes; stop() ends it and reads their stacks. */
export interface RunningProfiler {
  stop(): Promise<{ stacks: FoldedStacks; notes: string[] }>;
}

/** One sampling profiler: V8's, the JDK's Flight Recorder, perf. */
export interface ProcessProfiler {
  readonly name: string;
  /** Starts sampling these processes; resolves once sampling runs (or with notes saying why it does not). */
  start(pids: readonly number[], context: ProfilerContext): Promise<RunningProfiler>;
}
