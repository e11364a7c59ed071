import type { StepMeasurement } from '@bench/core';
import { RunTally } from './run-tally.js';

/** A workload's tallies, one a step, beside the run's own: each answer counted under its step too. */
export class StepTallies {
  private readonly tallies: RunTally[];

  constructor(private readonly steps: readonly { readonly name: string }[]) {
    this.tallies = steps.map(() => new RunTally(undefined));
  }

  restart(startNs: bigint): void {
    for (const tally of this.tallies) tally.series.restart(startNs);
  }

  answer(step: number, status: number, latencyUs: number, bytes: number, atNs: bigint): void {
    this.tallies[step]!.answer(status, latencyUs, bytes, atNs);
  }

  /** An answer of the step that failed its check or its capture. */
  wrong(step: number, problem: string, atNs: bigint): void {
    const tally = this.tallies[step]!;
    tally.wrongBody(atNs);
    tally.sample(problem);
  }

  error(step: number, kind: Parameters<RunTally['error']>[0], message: string, atNs?: bigint): void {
    this.tallies[step]!.error(kind, message, atNs);
  }

  /** Each step's numbers up to `endNs`, in the workload's order. */
  finish(endNs: bigint): StepMeasurement[] {
    return this.tallies.map((tally, i) => {
      const done = tally.finish(endNs, []);
      return {
        name: this.steps[i]!.name,
        requests: done.requests,
        latency: done.latency,
        histogram: done.histogram,
        failures: done.failures,
        non2xx: done.non2xx,
        statusCodes: done.statusCodes,
        errorSamples: done.errorSamples,
        seconds: done.seconds,
      };
    });
  }
}
