import { bootstrapMedianInterval, median, MIN_PAIRED_ROUNDS, MIN_REPEATS, type RunDocument } from '@bench/core';
import { cellKey } from './compare.js';
import { comparePaired, type TargetPair } from './paired-compare.js';

/** Why a run stopped adding rounds. */
export type StopReason = 'fixed' | 'decided' | 'max-rounds' | 'max-time' | 'interrupted' | 'failed';

/** Whether every comparison (or, without one, every cell) has an answer after the rounds so far. */
export interface RoundAssessment {
  readonly decided: boolean;
  /** One line per comparison cell (or measured cell): where it stands. */
  readonly lines: readonly string[];
}

/** The fewest rounds --repeat auto runs: those a paired verdict needs, or without a comparison those an interval needs. */
export function fewestRounds(comparisons: readonly TargetPair[]): number {
  return comparisons.length > 0 ? MIN_PAIRED_ROUNDS : MIN_REPEATS;
}

const pct = (value: number) => `${value > 0 ? '+' : ''}${value.toFixed(1)}%`;

/**
 * With comparisons: decided when every compared cell's rps verdict is a change or 'within noise' (its interval
 * wholly beyond or wholly inside ±noise). Without: when every cell's 95% interval of its median rps is narrower
 * than the noise threshold (in percent of the median). Never before fewestRounds(comparisons) rounds.
 */
export function assessRounds(doc: RunDocument, comparisons: readonly TargetPair[], noisePercent: number): RoundAssessment {
  const lines: string[] = [];
  let decided = true;
  if (comparisons.length > 0) {
    for (const pair of comparisons) {
      const comparison = comparePaired(doc, pair, { metrics: ['rps'], noisePercent });
      if (comparison.cells.length === 0) {
        decided = false;
        lines.push(`${pair.base}:${pair.head}: no round in which both succeeded yet`);
      }
      for (const cell of comparison.cells) {
        const rps = cell.metrics[0]!;
        if (rps.verdict === 'undecided' || rps.verdict === 'no verdict') decided = false;
        const interval = rps.interval ? ` [${pct(rps.interval[0])} .. ${pct(rps.interval[1])}]` : '';
        const bound = cell.generatorBound ? ' (generator-bound: the verdict may compare clients)' : '';
        lines.push(
          `${pair.base}:${pair.head} ${cell.scenario} c=${cell.concurrency}: rps ${pct(rps.changePercent)}${interval} ${rps.verdict}${bound}`,
        );
      }
    }
    return { decided, lines };
  }
  const groups = new Map<string, number[]>();
  for (const r of doc.results) if (r.status === 'ok') groups.set(cellKey(r), [...(groups.get(cellKey(r)) ?? []), r.rps]);
  if (groups.size === 0) return { decided: false, lines: ['no successful cell yet'] };
  for (const [key, rps] of groups) {
    if (rps.length < MIN_REPEATS) {
      decided = false;
      lines.push(`${key}: ${rps.length} run(s), ${MIN_REPEATS} needed`);
      continue;
    }
    const [low, high] = bootstrapMedianInterval(rps);
    const width = ((high - low) / median(rps)) * 100;
    if (width >= noisePercent) decided = false;
    lines.push(
      `${key}: rps interval ${width.toFixed(1)}% wide (${width < noisePercent ? 'narrower' : 'not narrower'} than ${noisePercent}%)`,
    );
  }
  return { decided, lines };
}
