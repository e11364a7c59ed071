import { pValueRelation, type CellResult } from '@bench/core';

/** Runs this long get a soak line per cell whatever its verdicts (a short run's would be mostly noise). */
export const SOAK_LINE_SECONDS = 60;

const signed = (value: number, unit: string) => `${value > 0 ? '+' : ''}${value}${unit}`;

/** A long cell's soak verdicts in one line: the server's RSS slope and fit, the drifts with their p-values, the cool-down. */
export function soakLine(result: CellResult): string | undefined {
  const soak = result.soak;
  if (!soak || soak.seconds < SOAK_LINE_SECONDS) return undefined;
  const parts: string[] = [];
  if (soak.rss) parts.push(`server RSS ${signed(soak.rss.slopeMBPerMin, ' MB/min')} (R² ${soak.rss.r2.toFixed(2)})`);
  if (soak.rps) parts.push(`throughput ${signed(soak.rps.driftPercent, '%')} (p ${pValueRelation(soak.rps.p)})`);
  if (soak.p99) parts.push(`p99 ${signed(soak.p99.driftPercent, '%')} (p ${pValueRelation(soak.p99.p)})`);
  if (soak.coolDown)
    parts.push(
      soak.coolDown.returned
        ? `memory came back ${soak.coolDown.afterSeconds} s after the load`
        : `memory held ${soak.coolDown.afterSeconds} s after the load`,
    );
  return parts.length > 0 ? `soak over ${soak.seconds} s: ${parts.join(', ')}` : undefined;
}
