import {
  coefficientOfVariation,
  DETECTABLE_CHANGES,
  median,
  roundsToDetect,
  standardDeviation,
  supportedThreshold,
  type RunDocument,
} from '@bench/core';
import { pairRounds, type TargetPair } from './paired-compare.js';

export interface NoiseFloor {
  readonly scenario: string;
  readonly concurrency: number;
  readonly rounds: number;
  readonly runs: number;
  readonly medianRps: number;
  /** Run-to-run spread: coefficient of variation of every run's rps, both sides, in %. */
  readonly runCvPercent: number;
  /** Spread of the per-round ratios B/A: standard deviation of their logarithm, in % (what a paired comparison sees). */
  readonly ratioSdPercent: number;
  /** The smallest --noise an A/A comparison can be expected to decide "within noise" within 20 rounds, in %. */
  readonly thresholdPercent: number;
  /** Rounds to detect each change of DETECTABLE_CHANGES (in %). */
  readonly roundsToDetect: ReadonlyArray<{ readonly changePercent: number; readonly rounds: number }>;
}

/** The noise floor of each (scenario, concurrency) from A/A rounds: the same target twice per round, as `pair`. */
export function noiseFloor(doc: RunDocument, pair: TargetPair): NoiseFloor[] {
  return pairRounds(doc, pair).map((cell) => {
    const rps = cell.rounds.flatMap((r) => [r.base.rps, r.head.rps]);
    const logRatios = cell.rounds.filter((r) => r.base.rps > 0 && r.head.rps > 0).map((r) => Math.log(r.head.rps / r.base.rps));
    const ratioSdPercent = logRatios.length >= 2 ? standardDeviation(logRatios) * 100 : 0;
    return {
      scenario: cell.scenario,
      concurrency: cell.concurrency,
      rounds: cell.rounds.length,
      runs: rps.length,
      medianRps: rps.length > 0 ? median(rps) : 0,
      runCvPercent: coefficientOfVariation(rps),
      ratioSdPercent,
      thresholdPercent: supportedThreshold(ratioSdPercent),
      roundsToDetect: DETECTABLE_CHANGES.map((changePercent) => ({ changePercent, rounds: roundsToDetect(ratioSdPercent, changePercent) })),
    };
  });
}
