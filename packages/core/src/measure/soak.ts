import { linearFit } from '../stats/linear-fit.js';
import { mannWhitneyP } from '../stats/rank-test.js';
import { median } from '../stats/median.js';
import { P_VALUE_DECIMALS, pValueRelation } from '../stats/p-value.js';
import { type CellResult, type CellSoak, type SecondPoint } from '../result.js';

const MB = 1024 * 1024;

/** A leak is flagged when the server's RSS rises at least this fast (MB per minute)... */
export const LEAK_SLOPE_MB_PER_MIN = 1;
/** ...along a line that explains this much of its variance (a sawtooth of GC cycles does not)... */
export const LEAK_MIN_R2 = 0.8;
/** ...by at least this much over the measured run (MB), so a few MB of noise in a short run is not a leak... */
export const LEAK_MIN_GROWTH_MB = 4;
/** ...in a run of at least this many seconds: in a few seconds a growing pool or a filling cache climbs just as steadily
 * (measured: prefork Apache stacks at "2,000 MB/min" in 3 s runs of hello at -c 50). */
export const LEAK_MIN_SECONDS = 30;
/** A drift is flagged when the rank test finds the two windows apart at this level... */
export const DRIFT_SIGNIFICANCE = 0.01;
/** ...and their medians differ by at least this much (percent): rps, then p99 (noisier second to second). */
export const RPS_DRIFT_PERCENT = 10;
export const P99_DRIFT_PERCENT = 50;
/** Each drift window holds a tenth of the run, and at least this many seconds (a rank test needs about five a side). */
export const MIN_WINDOW_SECONDS = 5;

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** How long to wait after the load stops before reading the server's memory again. */
export const coolDownSeconds = (measuredSeconds: number): number => (measuredSeconds >= 60 ? 3 : 1);

/** First tenth against last tenth: the medians, the change in percent, and the rank test's p-value. */
export function drift(values: readonly number[]): NonNullable<CellSoak['rps']> | undefined {
  const window = Math.max(MIN_WINDOW_SECONDS, Math.round(values.length / 10));
  if (values.length < 2 * window) return undefined;
  const first = values.slice(0, window);
  const last = values.slice(-window);
  const from = median(first);
  const to = median(last);
  if (from <= 0) return undefined;
  return {
    windowSeconds: window,
    first: round(from),
    last: round(to),
    driftPercent: round(((to - from) / from) * 100, 1),
    p: round(mannWhitneyP(first, last), P_VALUE_DECIMALS),
  };
}

/** The server's memory after the load stopped, against its first measured second and its last. */
/** The measured seconds with the server's memory a memory verdict (slope, cool-down) needs. */
export const SOAK_RSS_SECONDS = 3;

export interface CoolDownReading {
  readonly afterSeconds: number;
  readonly rssBytes: number;
}

/**
 * A cell's soak verdicts from its measured seconds (warm-up excluded; a last partial second too):
 * the server's RSS slope and fit, throughput and p99 drift, and whether memory came back after the load.
 */
export function soakVerdict(series: readonly SecondPoint[], coolDown?: CoolDownReading): CellSoak | undefined {
  const seconds = series.filter((s) => s.phase === 'measure' && s.seconds >= 0.9);
  if (seconds.length === 0) return undefined;
  const soak: CellSoak = { seconds: seconds.length };
  const withRss = seconds.filter((s) => (s.server?.rssBytes ?? 0) > 0);
  if (withRss.length >= SOAK_RSS_SECONDS) {
    const fit = linearFit(
      withRss.map((s) => s.t / 60),
      withRss.map((s) => s.server!.rssBytes / MB),
    );
    const startBytes = withRss[0]!.server!.rssBytes;
    const endBytes = withRss.at(-1)!.server!.rssBytes;
    soak.rss = { slopeMBPerMin: round(fit.slope), r2: round(fit.r2, 3), startBytes, endBytes };
    if (coolDown) {
      const growth = Math.max(0, endBytes - startBytes);
      const retained = coolDown.rssBytes - startBytes;
      // back when at most a quarter of the run's growth (or 1 MB) is still held
      soak.coolDown = { ...coolDown, returned: retained <= Math.max(MB, growth / 4) };
    }
  }
  const rps = drift(seconds.map((s) => s.rps));
  if (rps) soak.rps = rps;
  const p99 = drift(seconds.filter((s) => s.latency).map((s) => s.latency!.p99));
  if (p99) soak.p99 = p99;
  return soak;
}

/** Whether the RSS verdict reads as a leak: steep, steady, and large enough to be more than noise. */
export function looksLikeLeak(soak: CellSoak): boolean {
  const rss = soak.rss;
  if (!rss) return false;
  if (soak.seconds < LEAK_MIN_SECONDS) return false;
  const minutes = soak.seconds / 60;
  return rss.slopeMBPerMin >= LEAK_SLOPE_MB_PER_MIN && rss.r2 >= LEAK_MIN_R2 && rss.slopeMBPerMin * minutes >= LEAK_MIN_GROWTH_MB;
}

const signed = (percent: number) => `${percent > 0 ? '+' : ''}${percent}%`;

/** One line for each thing a reader should know: a possible leak, a significant drift of throughput or p99. */
export function soakNotes(soak: CellSoak): string[] {
  const notes: string[] = [];
  if (looksLikeLeak(soak)) {
    const rss = soak.rss!;
    let line = `server RSS grew ${rss.slopeMBPerMin.toFixed(1)} MB/min, R² ${rss.r2.toFixed(2)}: possible leak`;
    const cool = soak.coolDown;
    if (cool) {
      const held = (cool.rssBytes - rss.startBytes) / MB;
      line += cool.returned
        ? ` (its memory came back ${cool.afterSeconds} s after the load stopped)`
        : ` (${cool.afterSeconds} s after the load stopped it still held ${held.toFixed(1)} MB more than at the start)`;
    }
    notes.push(line);
  }
  const { rps, p99 } = soak;
  if (rps && rps.p < DRIFT_SIGNIFICANCE && Math.abs(rps.driftPercent) >= RPS_DRIFT_PERCENT)
    notes.push(
      `throughput drifted ${signed(rps.driftPercent)} from the first ${rps.windowSeconds} s to the last (median ${rps.first} → ${rps.last} rps, rank test p ${pValueRelation(rps.p)})`,
    );
  if (p99 && p99.p < DRIFT_SIGNIFICANCE && Math.abs(p99.driftPercent) >= P99_DRIFT_PERCENT)
    notes.push(
      `p99 drifted ${signed(p99.driftPercent)} from the first ${p99.windowSeconds} s to the last (median ${p99.first} → ${p99.last} ms, rank test p ${pValueRelation(p99.p)})`,
    );
  return notes;
}

/** The cell with its soak verdicts and their notes, when it has measured seconds. */
export function withSoak(cell: CellResult, coolDown?: CoolDownReading): CellResult {
  const soak = cell.series ? soakVerdict(cell.series, coolDown) : undefined;
  return soak ? { ...cell, soak, notes: [...cell.notes, ...soakNotes(soak)] } : cell;
}
