import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { errors, type ImportedRun } from '@bench/core';
import { k6Measurement } from '../k6-measurement.js';
import { createK6Tally, readK6Csv } from '../k6-samples.js';
import { EXPORT_FILE, exportDescriptionSchema, type ExportDescription } from './export-description.js';

/** The export's description, or undefined when `dir` holds none (not a k6 export of bench's). */
function readDescription(dir: string): ExportDescription | undefined {
  const file = path.join(dir, EXPORT_FILE);
  if (!existsSync(file)) return undefined;
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

/** The raw samples of every generator of an exported run, merged into one measurement (one histogram); undefined for a folder of no k6 export. */
export async function readK6Export(dir: string): Promise<ImportedRun | undefined> {
  const d = readDescription(dir);
  if (!d) return undefined;
  const files = sampleFiles(dir, d);
  const tally = createK6Tally(undefined, { ...(d.steps ? { steps: d.steps } : {}), ...(d.refusals ? { refusals: d.refusals } : {}) });
  for (const file of files) {
    try {
      await readK6Csv(file, tally);
    } catch (error) {
      throw errors.usage(`${file}: ${(error as Error).message}`);
    }
  }
  const measurement = { ...k6Measurement(tally), generators: { count: d.generators, segments: d.segments, sharedHost: false } };
  return {
    scenario: d.scenario,
    url: d.url,
    shape: d.shape,
    options: { generators: d.generators },
    engineVersion: d.k6,
    measurement,
    startedAt: Number.isFinite(tally.firstStartUs) ? new Date(tally.firstStartUs / 1000).toISOString() : d.createdAt,
    ...(tally.lastEndUs > 0 ? { finishedAt: new Date(tally.lastEndUs / 1000).toISOString() } : {}),
    notes: [
      `imported from ${files.length} k6 sample file(s) written by the generators of \`bench export\`; the machine below is the one that imported them`,
    ],
  };
}
