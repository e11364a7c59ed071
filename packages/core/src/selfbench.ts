// The selfbench model: bench through an engine against the same tool run bare, round by round (`bench selfbench`).

export interface SelfbenchSide {
  readonly rps: number;
  readonly requests: number;
  /** The generator's CPU over the run, seconds. */
  readonly cpuSeconds: number;
  /** The generator's resident memory at the end of the run (bench's whole process for an in-process engine), bytes. */
  readonly rssBytes?: number;
  /** An in-process generator's event-loop delay, p99 over the run, ms. */
  readonly eventLoopP99Ms?: number;
  /** An open loop's lateness: how late its requests went out after they were due, p50 and p99 over the run, ms. */
  readonly lateMs?: { readonly p50: number; readonly p99: number };
}

export interface SelfbenchRow {
  readonly target: string;
  readonly scenario: string;
  readonly engine: string;
  /** Connections of the run (-c). */
  readonly connections: number;
  /** The generator's worker threads (1 for the external tools). */
  readonly threads: number;
  readonly round: number;
  /** Which ran first this round: the order alternates, so drift does not favour one side. */
  readonly first: 'bench' | 'bare';
  readonly bench: SelfbenchSide;
  /** The bare tool's run; absent for an engine that has none (the open loop: bench's own). */
  readonly bare?: SelfbenchSide;
  /** The arrival rate it ran at, for an open loop (its rps per client CPU-second is then at that load, not a ceiling). */
  readonly rate?: number;
}
