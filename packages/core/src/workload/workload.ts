import type { CaptureSpec } from './capture-schema.js';
import type { DataRows } from './data-file.js';

/** What a step's answers must be, as a request spec's `expect` says it (compiled by answerExpectation). */
export interface ExpectConfig {
  readonly status?: number | undefined;
  readonly contentType?: string | undefined;
  readonly body?: string | undefined;
  readonly bodyMatches?: string | undefined;
  readonly json?: unknown;
}

/** One request of a workload, its path, header values and body still templates; plain data, so it crosses into worker threads. */
export interface WorkloadStep {
  /** Unique in the workload: a flow's step, a mix member, or `member.step` for a flow in a mix. */
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly expect: ExpectConfig;
  readonly capture: Readonly<Record<string, CaptureSpec>>;
  readonly thinkMs: number;
}

/** A choice of a mix step (or the only one of a plain step): its steps run in order when it is picked. */
export interface WorkloadMember {
  readonly name: string;
  readonly weight: number;
  readonly steps: readonly WorkloadStep[];
}

/** How a data file's rows are handed out. */
export interface WorkloadData extends DataRows {
  readonly file: string;
  readonly order: 'sequential' | 'random';
  readonly per: 'request' | 'connection';
}

/**
 * What each connection (virtual user) sends: its `once` steps when it opens, then the cycle's slots in order, again
 * and again; a slot of several members picks one by weight each time it is reached.
 */
export interface Workload {
  readonly once: readonly WorkloadStep[];
  readonly cycle: readonly (readonly WorkloadMember[])[];
  readonly data?: WorkloadData;
}

/** Every step of a workload, once steps first, in order. */
export function workloadSteps(workload: Workload): WorkloadStep[] {
  return [...workload.once, ...workload.cycle.flatMap((slot) => slot.flatMap((member) => member.steps))];
}
