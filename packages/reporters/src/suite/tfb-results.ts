import { randomUUID } from 'node:crypto';
import { median, type CellResult, type RunDocument, type TfbTestType } from '@bench/core';
import { findSuite, techempowerDatabase, techempowerEntry, type TechempowerShape } from '@bench/suites';
import { columnsOf } from './render-techempower.js';

// TechEmpower's results.json, as its toolset writes it (toolset/utils/results.py, `__to_jsonable`) and its own tools
// read it: rawData by test type, then framework, one entry per level in the order of the levels, with wrk's latency
// strings; the run's levels; who succeeded, failed and what verification said. Field names and units are TFB's.

/** TFB's names of the test types (its toolset/test_types folders), by bench's. */
export const TFB_TYPE_NAMES: Readonly<Record<TfbTestType, string>> = {
  json: 'json',
  plaintext: 'plaintext',
  db: 'db',
  queries: 'query',
  fortunes: 'fortune',
  updates: 'update',
  'cached-queries': 'cached-query',
};

/** One level of one framework's test, as TFB's results.py parses wrk's output. */
export interface TfbRawEntry {
  readonly latencyAvg: string;
  readonly latencyStdev: string;
  readonly latencyMax: string;
  readonly totalRequests: number;
  /** "Non-2xx or 3xx responses", as wrk counts them and TFB names them. */
  readonly '5xx'?: number;
  readonly timeout?: number;
  readonly connect?: number;
  readonly read?: number;
  /** Seconds since the epoch, as the toolset's STARTTIME and ENDTIME. */
  readonly startTime: number;
  readonly endTime: number;
}

export interface TfbResults {
  readonly uuid: string;
  readonly name: string;
  readonly environmentDescription: string;
  readonly git: null;
  readonly operatingSystem: { readonly name: string; readonly version: string };
  readonly startTime: number;
  readonly completionTime: number | null;
  readonly concurrencyLevels: readonly number[];
  readonly pipelineConcurrencyLevels: readonly number[];
  readonly queryIntervals: readonly number[];
  readonly cachedQueryIntervals: readonly number[];
  readonly frameworks: readonly string[];
  readonly duration: number;
  readonly rawData: Record<string, Record<string, TfbRawEntry[]>>;
  readonly completed: Record<string, string>;
  readonly succeeded: Record<string, string[]>;
  readonly failed: Record<string, string[]>;
  readonly verify: Record<string, Record<string, 'pass' | 'warn' | 'fail'>>;
  readonly testMetadata: ReadonlyArray<Record<string, string>>;
}

/** A latency in ms as wrk prints it, and TFB keeps it: 456.78us, 1.23ms, 2.01s. */
export function wrkLatency(ms: number): string {
  if (ms < 1) return `${(ms * 1000).toFixed(2)}us`;
  if (ms < 1000) return `${ms.toFixed(2)}ms`;
  return `${(ms / 1000).toFixed(2)}s`;
}

const seconds = (iso: string) => Math.round(Date.parse(iso) / 1000);

function rawEntry(cell: CellResult): TfbRawEntry {
  const { latency, failedBreakdown: failures } = cell;
  return {
    latencyAvg: wrkLatency(latency.mean),
    latencyStdev: wrkLatency(latency.stdev),
    latencyMax: wrkLatency(latency.max),
    totalRequests: cell.requests,
    ...(cell.non2xx > 0 ? { '5xx': cell.non2xx } : {}),
    ...(cell.timeouts > 0 ? { timeout: cell.timeouts } : {}),
    ...(failures.connect > 0 ? { connect: failures.connect } : {}),
    ...(failures.receive > 0 ? { read: failures.receive } : {}),
    startTime: seconds(cell.startedAt),
    endTime: seconds(cell.finishedAt),
  };
}

/** What verification said of a stack's type: a failed cell fails it, a warning warns, else it passed. */
function verdict(cells: readonly CellResult[]): 'pass' | 'warn' | 'fail' {
  if (cells.some((c) => c.status === 'failed' && /verification failed/.test(c.error ?? ''))) return 'fail';
  if (cells.some((c) => c.notes.some((n) => n.startsWith('verification warned')))) return 'warn';
  return 'pass';
}

/** The levels a test ran at, in order: connections, or the query parameter's values. */
const levelsOf = (test: TechempowerShape['tests'][number], doc: RunDocument) =>
  columnsOf(test, doc.results).map((c) => Number(c.label.replace(/,/g, '')));

/** `bench suite techempower`'s run as TFB's results.json: undefined for a run of anything else. */
export function tfbResults(doc: RunDocument): TfbResults | undefined {
  if (doc.suite?.name !== 'techempower') return undefined;
  const shape = findSuite('techempower').definition.techempower;
  if (!shape) return undefined;
  const frameworks = Object.keys(shape.entries).filter((target) => doc.results.some((r) => r.target === target));
  const rawData: TfbResults['rawData'] = {};
  const succeeded: TfbResults['succeeded'] = {};
  const failed: TfbResults['failed'] = {};
  const verify: TfbResults['verify'] = {};
  const levels: Partial<Record<TfbTestType, number[]>> = {};
  for (const test of shape.tests) {
    const type = TFB_TYPE_NAMES[test.type];
    const columns = columnsOf(test, doc.results);
    levels[test.type] = levelsOf(test, doc);
    rawData[type] = {};
    succeeded[type] = [];
    failed[type] = [];
    for (const framework of frameworks) {
      const cells = columns.flatMap((c) =>
        doc.results.filter((r) => r.target === framework && r.scenario === c.scenario && r.concurrency === c.concurrency).slice(0, 1),
      );
      if (cells.length === 0) continue;
      (verify[framework] ??= {})[type] = verdict(cells);
      if (cells.every((c) => c.status === 'ok')) {
        rawData[type][framework] = cells.map(rawEntry);
        succeeded[type].push(framework);
      } else failed[type].push(framework);
    }
  }
  // TFB's duration is the seconds each level ran, which TFB's tools divide totalRequests by: the levels' own (wrk runs
  // whole seconds, so a scaled 0.8 s level ran 1 s)
  const measured = doc.results.filter((r) => r.status === 'ok').map((r) => r.durationSeconds);
  const levelSeconds = measured.length > 0 ? Math.round(median(measured) * 100) / 100 : (doc.suite.shapes?.[0]?.seconds ?? 0);
  return {
    uuid: randomUUID(),
    name: `bench suite techempower ${doc.startedAt}`,
    environmentDescription: `bench ${doc.tool.version}${doc.suite.scale !== 1 ? `, scaled by ${doc.suite.scale}` : ''}`,
    git: null,
    operatingSystem: { name: doc.machine.platform === 'linux' ? 'Linux' : doc.machine.platform, version: doc.machine.release },
    startTime: Date.parse(doc.startedAt),
    completionTime: doc.finishedAt ? Date.parse(doc.finishedAt) : null,
    concurrencyLevels: levels.json ?? levels.db ?? [],
    pipelineConcurrencyLevels: levels.plaintext ?? [],
    queryIntervals: levels.queries ?? levels.updates ?? [],
    cachedQueryIntervals: levels['cached-queries'] ?? [],
    frameworks,
    duration: levelSeconds,
    rawData,
    completed: Object.fromEntries(frameworks.map((f) => [f, doc.finishedAt ?? doc.startedAt])),
    succeeded,
    failed,
    verify,
    testMetadata: frameworks.map((framework) => ({
      name: framework,
      framework,
      display_name: techempowerEntry(shape, framework, doc.options.db) ?? framework,
      database: techempowerDatabase(doc.options.db),
      orm: 'Raw',
      classification: 'Platform',
      webserver: 'None',
      platform: 'None',
    })),
  };
}

/**
 * TFB's score of each framework in each type, read from its results.json as TFB's tools read it: requests a second of
 * a level are its totalRequests over the run's duration; json, plaintext, db and fortunes score their best level, the
 * query types their highest query count (the last level).
 */
export function tfbScores(results: Pick<TfbResults, 'rawData' | 'duration'>): Record<string, Record<string, number>> {
  const scores: Record<string, Record<string, number>> = {};
  for (const [type, frameworks] of Object.entries(results.rawData)) {
    const byCount = type === 'query' || type === 'update' || type === 'cached-query';
    for (const [framework, entries] of Object.entries(frameworks)) {
      const rps = entries.map((e) => e.totalRequests / results.duration);
      (scores[framework] ??= {})[type] = byCount ? (rps.at(-1) ?? 0) : Math.max(0, ...rps);
    }
  }
  return scores;
}
