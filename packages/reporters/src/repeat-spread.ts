import { coefficientOfVariation, modifiedZScores, type CellResult } from '@bench/core';

/** Repeats whose rps spread more than this (coefficient of variation, %) make a cell's median uncertain. */
export const SPREAD_CV_PERCENT = 5;
/** hyperfine's rule: a run whose modified z-score exceeds this is an outlier. */
export const OUTLIER_MODIFIED_Z = 3.5;

/** Lines for a scenario's report: cells whose repeats spread more than 5% CV, and runs that are outliers. */
export function spreadLines(results: readonly CellResult[]): string[] {
  const groups = new Map<string, CellResult[]>();
  for (const r of results)
    if (r.status === 'ok') groups.set(`${r.target} c=${r.concurrency}`, [...(groups.get(`${r.target} c=${r.concurrency}`) ?? []), r]);
  const lines: string[] = [];
  for (const [cell, runs] of groups) {
    if (runs.length < 2) continue;
    const rps = runs.map((r) => r.rps);
    const cv = coefficientOfVariation(rps);
    if (cv > SPREAD_CV_PERCENT)
      lines.push(
        `${cell}: its ${runs.length} runs spread ${cv.toFixed(1)}% (coefficient of variation of rps, above ${SPREAD_CV_PERCENT}%): the median is uncertain; more rounds, or a quieter machine (\`bench noise\` measures it)`,
      );
    const z = runs.length >= 3 ? modifiedZScores(rps) : undefined;
    runs.forEach((r, i) => {
      const score = z?.[i] ?? 0;
      if (Math.abs(score) > OUTLIER_MODIFIED_Z)
        lines.push(
          `${cell}: run ${r.repeat} (${Math.round(r.rps)} rps) is an outlier (modified z-score ${score.toFixed(1)}, beyond ±${OUTLIER_MODIFIED_Z})`,
        );
    });
  }
  return lines;
}
