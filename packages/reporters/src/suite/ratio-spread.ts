import { CLIENT_SATURATED_PERCENT, mean, median, standardDeviation, studentTCritical, type CellResult } from '@bench/core';
import { resultFields } from '@bench/suites';

/** A ratio of two rows: this run's figure and its 95% interval, and what the interval covers. */
export interface RatioSpread {
  /** The geometric mean of this run's per-round ratios. */
  readonly center: number;
  readonly low: number;
  readonly high: number;
  /** This run's rounds in which both rows were measured. */
  readonly rounds: number;
  /** The runs whose spread the interval covers: this one, and the earlier runs here that measured the ratio. */
  readonly runs: number;
}

const STALL_NOTE = /^(the stack waited rather than worked|answers waited while the stack used little CPU|waits inside the measured run)/;

/** A ratio that moved more than this factor from the article's gets its measured causes named. */
export const MOVED_FACTOR = 2;

// The normal's 97.5% point: the spread between runs, once measured, is taken as known (Student's t for the two runs
// a first rerun gives would multiply it by 12.7, an interval no reader could use)
const BETWEEN_RUNS_Z = 1.96;

function byRound(repeats: readonly CellResult[], field: string): Map<number, number> {
  const read = resultFields[field];
  const values = new Map<number, number>();
  for (const cell of repeats) {
    const value = cell.status === 'ok' ? read?.(cell) : undefined;
    if (typeof value === 'number') values.set(cell.repeat, value);
  }
  return values;
}

/**
 * Each round's ratio of a row to the reference: the two ran in the same round, in the round's random order, so a
 * drift of the machine falls on both.
 */
export function roundRatios(row: readonly CellResult[], reference: readonly CellResult[], field: string): number[] {
  const mine = byRound(row, field);
  const theirs = byRound(reference, field);
  return [...mine].flatMap(([round, value]) => {
    const base = theirs.get(round);
    return base !== undefined && base !== 0 ? [value / base] : [];
  });
}

/**
 * A ratio's figure and 95% interval from this run's per-round ratios and the earlier runs' (each run's own rounds):
 * the geometric mean of this run's, with Student's t interval of their logarithms (the rounds' range, which a
 * percentile bootstrap of 3 rounds gives, holds the median 75% of the times: too narrow to be called 95%), widened
 * where earlier runs measured the ratio to 1.96 standard deviations of the runs' geometric means, this one's among
 * them: what varies from one run to the next, not only from one round to the next.
 */
export function spreadOf(ratios: readonly number[], earlier: ReadonlyArray<readonly number[]> = []): RatioSpread | undefined {
  if (ratios.length === 0) return undefined;
  // a row that answered nothing in a round has no logarithm: its ratios' median and range, over this run alone
  if (ratios.some((r) => r <= 0))
    return { center: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios), rounds: ratios.length, runs: 1 };
  const logs = ratios.map(Math.log);
  const center = mean(logs);
  const rounds = logs.length > 1 ? (studentTCritical(logs.length - 1) * standardDeviation(logs)) / Math.sqrt(logs.length) : 0;
  const runMeans = [...earlier.filter((r) => r.length > 0).map((r) => mean(r.map(Math.log))), center];
  const runs = runMeans.length > 1 ? BETWEEN_RUNS_Z * standardDeviation(runMeans) : 0;
  const half = Math.max(rounds, runs);
  return {
    center: Math.exp(center),
    low: Math.exp(center - half),
    high: Math.exp(center + half),
    rounds: logs.length,
    runs: runMeans.length,
  };
}

/** A row's ratio to the reference over this run's rounds, and over the earlier runs' ratios of the same cells. */
export function ratioSpread(
  row: readonly CellResult[],
  reference: readonly CellResult[],
  field: string,
  earlier: ReadonlyArray<readonly number[]> = [],
): RatioSpread | undefined {
  return spreadOf(roundRatios(row, reference, field), earlier);
}

const digits = (value: number) => (Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 0.1 ? 2 : 3);
const fixed = (value: number) => value.toFixed(digits(value));

/** "0.04 [0.03-0.05]": the ratio and its interval; the bare ratio from a single round of a single run. */
export function showRatio(spread: RatioSpread | undefined): string {
  if (!spread) return '';
  if ((spread.rounds < 2 && spread.runs < 2) || fixed(spread.low) === fixed(spread.high)) return fixed(spread.center);
  return `${fixed(spread.center)} [${fixed(spread.low)}-${fixed(spread.high)}]`;
}

const fmt = (value: number, fraction = 0) => value.toLocaleString('en-US', { maximumFractionDigits: fraction });

/** The stack's CPU per answer over its rounds, milliseconds of one core (median). */
function cpuPerRequestMs(repeats: readonly CellResult[]): number | undefined {
  const values = repeats.flatMap((r) =>
    r.status === 'ok' && r.requests > 0 && r.resources?.server
      ? [(r.resources.server.cpuPercent * r.durationSeconds * 10) / r.requests]
      : [],
  );
  return values.length > 0 ? median(values) : undefined;
}

function mostProcesses(repeats: readonly CellResult[]): number | undefined {
  const values = repeats.flatMap((r) => (r.status === 'ok' && r.resources?.server ? [r.resources.server.processes] : []));
  return values.length > 0 ? Math.max(...values) : undefined;
}

/** What bench measured that can explain a ratio far from the article's: stalls, a generator at its ceiling, pool sizes, CPU per request. */
export function measuredCauses(sides: ReadonlyArray<{ readonly label: string; readonly repeats: readonly CellResult[] }>): string[] {
  const causes: string[] = [];
  for (const { label, repeats } of sides) {
    const stalled = repeats.flatMap((r) => r.notes.filter((n) => STALL_NOTE.test(n)));
    if (stalled.length > 0)
      causes.push(`${label}: ${stalled[0]}${stalled.length > 1 ? ` (in ${stalled.length} of ${repeats.length} rounds)` : ''}`);
    const busiest = Math.max(...repeats.map((r) => r.resources?.client?.cpuPercent ?? 0));
    if (busiest >= CLIENT_SATURATED_PERCENT)
      causes.push(`${label}: the generator at its ceiling (${fmt(busiest)}% of one core): it, not the stack, may bound the figure`);
  }
  const pools = sides.map((s) => [s.label, mostProcesses(s.repeats)] as const).filter(([, n]) => n !== undefined);
  if (pools.length > 0) causes.push(`processes of the stack at most: ${pools.map(([label, n]) => `${label} ${fmt(n!)}`).join(', ')}`);
  const cpu = sides.map((s) => [s.label, cpuPerRequestMs(s.repeats)] as const).filter(([, ms]) => ms !== undefined);
  if (cpu.length > 0) causes.push(`server CPU per request: ${cpu.map(([label, ms]) => `${label} ${fmt(ms!, 3)} ms`).join(', ')}`);
  return causes;
}

/** Whether today's ratio moved more than MOVED_FACTOR from the article's, either way. */
export function movedFromArticle(then: number | undefined, now: number | undefined): boolean {
  if (then === undefined || now === undefined || then <= 0 || now <= 0) return false;
  return now / then > MOVED_FACTOR || then / now > MOVED_FACTOR;
}
