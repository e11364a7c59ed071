import { bootstrapMedianInterval, CLIENT_SATURATED_PERCENT, median, type CellResult } from '@bench/core';
import { resultFields } from '@bench/suites';

/** A ratio of two rows over the suite's rounds: the median of the per-round ratios and its 95% bootstrap interval. */
export interface RatioSpread {
  readonly median: number;
  readonly low: number;
  readonly high: number;
  readonly rounds: number;
}

const STALL_NOTE = /^(the stack waited rather than worked|answers waited while the stack used little CPU|waits inside the measured run)/;

/** A ratio that moved more than this factor from the article's gets its measured causes named. */
export const MOVED_FACTOR = 2;

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
 * Each round's ratio of a row to the reference (the two ran in the same round, in the round's random order, so
 * a drift of the machine falls on both), then their median and its 95% percentile bootstrap interval.
 */
export function ratioSpread(row: readonly CellResult[], reference: readonly CellResult[], field: string): RatioSpread | undefined {
  const mine = byRound(row, field);
  const theirs = byRound(reference, field);
  const ratios = [...mine].flatMap(([round, value]) => {
    const base = theirs.get(round);
    return base !== undefined && base !== 0 ? [value / base] : [];
  });
  if (ratios.length === 0) return undefined;
  const [low, high] = ratios.length > 1 ? bootstrapMedianInterval(ratios) : [ratios[0]!, ratios[0]!];
  return { median: median(ratios), low, high, rounds: ratios.length };
}

const digits = (value: number) => (Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 0.1 ? 2 : 3);
const fixed = (value: number) => value.toFixed(digits(value));

/** "0.04 [0.03-0.05]": the median ratio and its interval; the bare ratio from a single round. */
export function showRatio(spread: RatioSpread | undefined): string {
  if (!spread) return '';
  if (spread.rounds < 2 || fixed(spread.low) === fixed(spread.high)) return fixed(spread.median);
  return `${fixed(spread.median)} [${fixed(spread.low)}-${fixed(spread.high)}]`;
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
