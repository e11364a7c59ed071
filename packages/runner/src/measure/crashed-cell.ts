import type { CellResult, EngineSecond, LoadMeasurement, ResourceSecond } from '@bench/core';
import { failedCell, type CellContext } from '../run/cell-result.js';
import { cellSeries, type SampledRun } from '@bench/core';

/** The target died while the load ran: its last output, when (hrtime ns), and what the load measured until it stopped. */
export interface Crash {
  readonly crashed: string;
  readonly atNs: bigint;
  readonly partial: LoadMeasurement | undefined;
}

/**
 * A cell whose target died mid-run: failed, with the second it died in and its last output, and
 * every second measured until then (warm-up included) in its series.
 */
export function crashedCell(
  cell: CellContext,
  crash: Crash,
  loadStartNs: bigint,
  serverFrom: (startNs: bigint) => readonly ResourceSecond[] | undefined,
  warmup?: SampledRun,
): CellResult {
  const startNs = crash.partial?.startedAtNs ?? loadStartNs;
  const diedAt = Math.max(0, Number(crash.atNs - startNs) / 1e9);
  const second = Math.floor(diedAt);
  const failed = failedCell(cell, `target died during the run: in second ${second} (${diedAt.toFixed(1)} s in): ${crash.crashed}`);
  // the second it died in is kept (partly measured); what the load counted after it is not
  const seconds: EngineSecond[] = (crash.partial?.seconds ?? []).filter((s) => s.t <= second);
  if (seconds.length === 0 && !warmup) return failed;
  const series = cellSeries({ seconds, server: serverFrom(startNs) }, warmup);
  return { ...failed, series };
}
