import { median, type CellResult, type StepResult } from '@bench/core';

/** One step of a workload over a cell's repeats: medians of its rate and percentiles, sums of its failures. */
export interface StepSummary {
  readonly name: string;
  readonly sharePercent: number;
  readonly rps: number;
  readonly p50: number;
  readonly p80: number;
  readonly p99: number;
  readonly failed: number;
  readonly non2xx: number;
  readonly requests: number;
}

/** The steps of a cell's finished runs, in the workload's order; [] for a cell without a workload. */
export function stepSummaries(runs: readonly CellResult[]): StepSummary[] {
  const ok = runs.filter((r) => r.status === 'ok' && r.steps);
  const names = ok[0]?.steps?.map((s) => s.name) ?? [];
  return names.map((name) => {
    const steps = ok.flatMap((r) => r.steps!.filter((s) => s.name === name)) as StepResult[];
    return {
      name,
      sharePercent: median(steps.map((s) => s.sharePercent)),
      rps: median(steps.map((s) => s.rps)),
      p50: median(steps.map((s) => s.latency.p50)),
      p80: median(steps.map((s) => s.latency.p80)),
      p99: median(steps.map((s) => s.latency.p99)),
      failed: steps.reduce((sum, s) => sum + s.failed, 0),
      non2xx: steps.reduce((sum, s) => sum + s.non2xx, 0),
      requests: steps.reduce((sum, s) => sum + s.requests, 0),
    };
  });
}
