import { requestScenario, type ImportedRun, type RunDocument, cellSeries } from '@bench/core';
import { measuredCell } from './cell-result.js';
import { resolveRunOptions } from '../options/resolve.js';
import { newRunDocument } from './run-cells.js';

/** One bench result from a run an engine exported and read back (`bench import`): one cell, its generators elsewhere. */
export function importedDocument(engine: string, run: ImportedRun, command: string): RunDocument {
  const { shape } = run;
  const options = resolveRunOptions(
    { scenarios: [run.scenario.name] },
    {
      concurrency: [shape.connections],
      ...(shape.requests !== undefined ? { requests: shape.requests } : { durationSeconds: shape.durationSeconds ?? 10 }),
      ...(shape.rate !== undefined ? { rate: shape.rate } : {}),
      keepAlive: shape.keepAlive,
      timeoutSeconds: shape.timeoutSeconds,
      warmupSeconds: 0,
      engine,
      ...run.options,
    },
  );
  const scenario = requestScenario({ name: run.scenario.name, method: run.scenario.method, path: run.scenario.path, expect: {} });
  const result = measuredCell(
    {
      scenario,
      target: new URL(run.url).host,
      concurrency: shape.connections,
      repeat: 1,
      options,
      url: run.url.replace(/\/+$/, ''),
      settings: {},
      engine: { name: engine, version: run.engineVersion },
      startedAt: run.startedAt,
    },
    {
      measurement: run.measurement,
      resources: {},
      notes: run.notes,
      documentLength: run.scenario.documentLength,
      // second 0 is the first sample read: the generators' own start is not in their files
      series: cellSeries({ seconds: run.measurement.seconds ?? [] }),
    },
  );
  const doc = newRunDocument(command, options);
  doc.machine = { ...doc.machine, sharedHost: false };
  doc.startedAt = run.startedAt;
  doc.results.push({ ...result, ...(run.finishedAt !== undefined ? { finishedAt: run.finishedAt } : {}) });
  doc.complete = true;
  return doc;
}
