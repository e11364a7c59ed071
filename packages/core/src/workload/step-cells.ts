import type { CellResult } from '../result.js';

/**
 * A workload cell's steps, each as a cell of its own (its numbers in the cell's fields, scenario named by `name`), so
 * what reads cells (thresholds, compare) reads steps the same way.
 */
export function stepCells(r: CellResult, name: (step: string) => string): CellResult[] {
  return (r.steps ?? []).map((step) => {
    const cell: CellResult = {
      ...r,
      steps: undefined,
      soak: undefined,
      histogram: undefined,
      series: undefined,
      scenario: name(step.name),
      requests: step.requests,
      rps: step.rps,
      latency: step.latency,
      failed: step.failed,
      failedBreakdown: step.failedBreakdown,
      non2xx: step.non2xx,
      timeouts: step.timeouts,
      statusCodes: step.statusCodes,
      ...(step.histogram ? { histogram: step.histogram } : {}),
      ...(step.series ? { series: step.series } : {}),
      profile: undefined,
    };
    return cell;
  });
}
