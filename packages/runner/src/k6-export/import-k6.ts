import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { errors, requestScenario, type RunDocument } from '@bench/core';
import { measuredCell } from '../cell-result.js';
import { cellSeries } from '../measure/cell-series.js';
import { createK6Tally, readK6Csv, k6Measurement } from '@bench/engines';
import { resolveRunOptions } from '../options/resolve.js';
import { newRunDocument } from '../run.js';
import { EXPORT_FILE, exportDescriptionSchema, type ExportDescription } from './export-description.js';

function readDescription(dir: string): ExportDescription {
  const file = path.join(dir, EXPORT_FILE);
  if (!existsSync(file)) throw errors.usage(`${dir} holds no ${EXPORT_FILE}: give the folder \`bench export k6\` wrote`);
  const parsed = exportDescriptionSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success)
    throw errors.usage(
      `${file} is not a bench export (${parsed.error.issues[0]?.message ?? 'invalid'}); export again with \`bench export k6\``,
    );
  return parsed.data;
}

/** The runners' sample files: every .csv in the export's results folder. */
function sampleFiles(dir: string, d: ExportDescription): string[] {
  const resultsDir = path.join(dir, d.resultsDir);
  const files = existsSync(resultsDir)
    ? readdirSync(resultsDir)
        .filter((f) => f.endsWith('.csv'))
        .sort()
        .map((f) => path.join(resultsDir, f))
    : [];
  if (files.length !== d.generators) {
    throw errors.usage(
      `${resultsDir} holds ${files.length} sample file(s) but the run was split over ${d.generators} generator(s): copy every runner's CSV file there, then import again`,
    );
  }
  return files;
}

/** One bench result from the raw samples of every generator of an exported run, merged into one histogram. */
export async function importK6(dir: string, command: string): Promise<RunDocument> {
  const d = readDescription(dir);
  const files = sampleFiles(dir, d);
  const tally = createK6Tally();
  for (const file of files) {
    try {
      await readK6Csv(file, tally);
    } catch (error) {
      throw errors.usage(`${file}: ${(error as Error).message}`);
    }
  }
  const options = resolveRunOptions(
    { scenarios: [d.scenario.name] },
    {
      concurrency: [d.shape.connections],
      ...(d.shape.requests !== undefined ? { requests: d.shape.requests } : { durationSeconds: d.shape.durationSeconds ?? 10 }),
      ...(d.shape.rate !== undefined ? { rate: d.shape.rate } : {}),
      keepAlive: d.shape.keepAlive,
      timeoutSeconds: d.shape.timeoutSeconds,
      warmupSeconds: 0,
      engine: 'k6',
      generators: d.generators,
    },
  );
  const scenario = requestScenario({ name: d.scenario.name, method: d.scenario.method, path: d.scenario.path, expect: {} });
  const measurement = { ...k6Measurement(tally), generators: { count: d.generators, segments: d.segments, sharedHost: false } };
  const startedAt = Number.isFinite(tally.firstStartUs) ? new Date(tally.firstStartUs / 1000).toISOString() : d.createdAt;
  const result = measuredCell(
    {
      scenario,
      target: new URL(d.url).host,
      concurrency: d.shape.connections,
      repeat: 1,
      options,
      url: d.url.replace(/\/+$/, ''),
      settings: {},
      engine: { name: 'k6', version: d.k6 },
      startedAt,
    },
    {
      measurement,
      resources: {},
      notes: [
        `imported from ${files.length} k6 sample file(s) written by the generators of \`bench export\`; the machine below is the one that imported them`,
      ],
      documentLength: d.scenario.documentLength,
      // second 0 is the first sample read: the generators' own start is not in their files
      series: cellSeries({ seconds: measurement.seconds ?? [] }),
    },
  );
  const doc = newRunDocument(command, options);
  doc.machine = { ...doc.machine, sharedHost: false };
  doc.startedAt = startedAt;
  doc.results.push({ ...result, finishedAt: tally.lastEndUs > 0 ? new Date(tally.lastEndUs / 1000).toISOString() : result.finishedAt });
  doc.complete = true;
  return doc;
}
