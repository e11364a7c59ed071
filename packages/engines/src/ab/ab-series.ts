import { SeriesRecorder, type EngineSecond, type LatencyHistogram } from '@bench/core';
import { recordMilliseconds } from '@bench/core';
import type { ExternalRun } from '../external-process.js';
import { forEachAbRecord } from './ab-output.js';

export interface AbSeries {
  readonly seconds: EngineSecond[];
  readonly startedAtNs: bigint;
}

/**
 * ab's per-request records (-g) in the run's histogram and its seconds. A record knows only the
 * whole epoch second its request started in, so the seconds are whole epoch seconds from the first
 * request's: the first one starts before ab did (on this process's clock: the spawn time moved back
 * by how far into its second ab was spawned) and covers only the part after the spawn. The records
 * hold no status and no failure: those seconds count every record as a 2xx answer (the run's totals
 * have ab's non-2xx and failures).
 */
export function abSeries(tsv: string, run: ExternalRun, timeTakenSeconds: number, histogram: LatencyHistogram): AbSeries | undefined {
  let first = Number.POSITIVE_INFINITY;
  forEachAbRecord(tsv, ({ startSecond, totalMs }) => {
    recordMilliseconds(histogram, totalMs);
    if (startSecond < first) first = startSecond;
  });
  if (!Number.isFinite(first)) return undefined;
  // how far into the first record's second ab was spawned (below 0 when its first request began in a later second)
  const intoSecondMs = run.spawnedAtMs - first * 1000;
  const startedAtNs = run.spawnedAtNs - BigInt(Math.round(intoSecondMs * 1e6));
  const endNs = run.spawnedAtNs + BigInt(Math.round(timeTakenSeconds * 1e9));
  const series = new SeriesRecorder(startedAtNs);
  forEachAbRecord(tsv, ({ startSecond, totalMs }) => {
    const at = startedAtNs + BigInt(startSecond - first) * 1_000_000_000n;
    series.response(totalMs * 1000, true, at < endNs ? at : endNs - 1n);
  });
  const seconds = series.finish(endNs, run.clientCpuPerSecond(startedAtNs));
  const [head, ...rest] = seconds;
  if (!head) return { seconds, startedAtNs };
  const covered = Math.max(0.001, Math.round((head.seconds - Math.max(0, intoSecondMs) / 1000) * 1000) / 1000);
  return { seconds: [{ ...head, seconds: covered }, ...rest], startedAtNs };
}
