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
  const starts: number[] = [];
  const totals: number[] = [];
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  forEachAbRecord(tsv, ({ startSecond, totalMs }) => {
    recordMilliseconds(histogram, totalMs);
    starts.push(startSecond);
    totals.push(totalMs);
    if (startSecond < first) first = startSecond;
    if (startSecond > last) last = startSecond;
  });
  if (!Number.isFinite(first)) return undefined;
  // how far into the first record's second ab was spawned (below 0 when its first request began in a later second)
  const intoSecondMs = run.spawnedAtMs - first * 1000;
  const startedAtNs = run.spawnedAtNs - BigInt(Math.round(intoSecondMs * 1e6));
  const endNs = run.spawnedAtNs + BigInt(Math.round(timeTakenSeconds * 1e9));
  // the records in the order of their seconds (ab writes them in another), so the recorder holds one second's histogram at a time
  const bySecond = Array.from({ length: last - first + 1 }, (): number[] => []);
  starts.forEach((second, i) => bySecond[second - first]!.push(i));
  const series = new SeriesRecorder(startedAtNs, { live: true });
  bySecond.forEach((records, offset) => {
    const second = startedAtNs + BigInt(offset) * 1_000_000_000n;
    const at = second < endNs ? second : endNs - 1n;
    for (const i of records) series.response(totals[i]! * 1000, true, at);
  });
  const seconds = series.finish(endNs, run.clientCpuPerSecond(startedAtNs));
  const [head, ...rest] = seconds;
  if (!head) return { seconds, startedAtNs };
  const covered = Math.max(0.001, Math.round((head.seconds - Math.max(0, intoSecondMs) / 1000) * 1000) / 1000);
  return { seconds: [{ ...head, seconds: covered }, ...rest], startedAtNs };
}
