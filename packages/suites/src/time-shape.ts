import type { RunDocument } from '@bench/core';
import { publishedValue, tableColumns } from './suite-cells.js';
import type { SuiteRun, SuiteRunOptions } from './suite-schema.js';
import type { Suite } from './suite-registry.js';

// An article that bounded its runs by request count ran them for as long as its stacks took: 3.3 s for
// 1,000 requests of mod_php in article 003. Today's stacks answer the same count in a tenth of a second,
// and then one worker's start-up (mod_fcgid waits a whole second for a new process) is the whole result.
// A suite keeps the article's time instead: at least as long as the article ran, never under the floor,
// and not past the cap (article 000 ran 23 minutes a cell; a minute amortizes any start-up as well).
export const TIME_SHAPE_FLOOR_SECONDS = 5;
export const TIME_SHAPE_CAP_SECONDS = 60;

export type RunShape = NonNullable<NonNullable<RunDocument['suite']>['shapes']>[number];

const fmt = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 3 });

/** The published "Time taken for tests" of the article's rows in the tables this run fills, seconds. */
export function articleSeconds(suite: Suite, run: SuiteRun): number[] {
  const single = suite.definition.runs.length === 1;
  const seconds: number[] = [];
  for (const table of suite.definition.tables) {
    if (table.run !== run.id && !(table.run === undefined && single)) continue;
    const published = suite.published.tables.find((t) => t.id === table.published);
    if (!published) continue;
    for (const column of tableColumns(published, table).filter((c) => c.field === 'durationSeconds'))
      for (const row of published.rows) {
        const value = publishedValue(published, row.label, column);
        if (typeof value === 'number' && value > 0) seconds.push(value);
      }
  }
  return seconds;
}

/**
 * The load shape of one suite run at a scale: a run the article bounded by request count runs for the article's
 * time instead (its fastest row's, at least the floor, at most the cap; scaled), and counts requests per second
 * as the article did. Returns the options that replace the run's bound, and the shape as the document records it.
 */
export function planRunShape(suite: Suite, run: SuiteRun, scale: number): { options: SuiteRunOptions; shape: RunShape } {
  const { requests, durationSeconds } = run.options;
  if (requests === undefined) {
    const seconds = durationSeconds ?? 10;
    return {
      options: {},
      shape: { run: run.id, kind: 'duration', seconds, line: `${run.id}: ${fmt(seconds)} s a cell, as the article ran it` },
    };
  }
  const article = articleSeconds(suite, run);
  const fastest = article.length > 0 ? Math.min(...article) : undefined;
  const wanted = Math.min(TIME_SHAPE_CAP_SECONDS, Math.max(TIME_SHAPE_FLOOR_SECONDS, fastest ?? 0));
  const seconds = scale === 1 ? wanted : Math.max(0.5, Math.round(wanted * scale * 10) / 10);
  const took =
    fastest === undefined
      ? `the article did not publish how long its ${fmt(requests)} requests took`
      : `the article's ${fmt(requests)} requests took ${article.length > 1 && Math.max(...article) !== fastest ? `${fmt(fastest)}-${fmt(Math.max(...article))}` : fmt(fastest)} s`;
  const why =
    fastest === undefined
      ? `the floor of ${TIME_SHAPE_FLOOR_SECONDS} s`
      : fastest > TIME_SHAPE_CAP_SECONDS
        ? `its time capped at ${TIME_SHAPE_CAP_SECONDS} s`
        : fastest < TIME_SHAPE_FLOOR_SECONDS
          ? `its time, raised to the floor of ${TIME_SHAPE_FLOOR_SECONDS} s`
          : 'its time';
  return {
    options: { durationSeconds: seconds },
    shape: {
      run: run.id,
      kind: 'time',
      requests,
      seconds,
      ...(fastest !== undefined ? { articleSeconds: fastest } : {}),
      line:
        `${run.id}: the article's time, ${fmt(seconds)} s a cell${scale !== 1 ? ` (scaled by ${scale})` : ''}, not its ${fmt(requests)} requests ` +
        `(${took}; today's stacks answer that many far sooner, so a worker's start-up would be the result): ${why}; requests per second counted as the article did (answers / time taken)`,
    },
  };
}
