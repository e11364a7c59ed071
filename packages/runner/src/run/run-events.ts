import type { CellResult, LoadProgress } from '@bench/core';
import type { StopReason } from '@bench/compare';
import type { RunOptions } from '../options/declarations.js';
import type { Plan } from './plan.js';

/** What the runner tells whoever drives it (the CLI draws progress from these); it never prints. */
export type RunEvent =
  | {
      readonly type: 'plan';
      readonly plan: Plan;
      readonly cells: number;
      readonly engine: string;
      /** Why this engine, when an option chose it over another (--rate: wire, else the open loop). */
      readonly engineBecause?: string;
      readonly options: RunOptions;
      /** The run's startedAt, as its document records it: what names the run outside bench (Prometheus's `run` label). */
      readonly runStartedAt: string;
    }
  | { readonly type: 'target-starting'; readonly scenario: string; readonly target: string }
  | { readonly type: 'target-verifying'; readonly scenario: string; readonly target: string }
  | {
      readonly type: 'cell-start';
      readonly index: number;
      readonly total: number;
      readonly scenario: string;
      readonly target: string;
      readonly concurrency: number;
      readonly repeat: number;
      readonly phase: 'warmup' | 'measure';
      /** The cell as a report shows it if the run ends during its measured run (the journal keeps it). */
      readonly unfinished?: CellResult;
    }
  | { readonly type: 'cell-progress'; readonly progress: LoadProgress }
  | { readonly type: 'cell-end'; readonly result: CellResult }
  /** A step of work that is not a cell (a suite's client timings). */
  | { readonly type: 'step'; readonly text: string }
  /** A round (every cell once) ended; with --repeat auto, where each comparison stands. */
  | { readonly type: 'round-end'; readonly round: number; readonly decided: boolean; readonly lines: readonly string[] }
  /** The run stopped adding rounds: how many ran, and why. */
  | { readonly type: 'rounds-end'; readonly rounds: number; readonly stoppedBecause: StopReason; readonly lines: readonly string[] };
