import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchCacheDir, describeMachine, type RunDocument, z } from '@bench/core';
import type { Suite } from './suite-registry.js';

// The rounds of one run share what a run holds constant: the hour's other work on the machine, its CPU's state, the
// stacks as this checkout configures them. Two runs of article 003's suite read FastCGI / module 1.28 [1.17-1.30]
// and 0.53 [0.53-0.54]: each interval described its own rounds and neither the other run. So every
// finished run of a suite is kept here, and a later run's intervals cover the spread between runs as well.

/** Runs of one suite kept per machine: enough to read a spread, few enough that a change of the machine's weeks ago ages out. */
export const RECORDED_RUNS = 10;

export type EarlierRun = NonNullable<NonNullable<RunDocument['suite']>['earlierRuns']>[number];

const recordSchema = z.object({
  runs: z.array(
    z.object({
      finishedAt: z.string(),
      // the machine (a rerun elsewhere is another experiment), the suite as defined then, and the scale
      hostname: z.string(),
      cpuModel: z.string(),
      cpus: z.number(),
      definition: z.string(),
      scale: z.number(),
      ratios: z.record(z.string(), z.array(z.number())),
    }),
  ),
});
type Recorded = z.infer<typeof recordSchema>['runs'][number];

/** The file a suite's runs on this machine are kept in: bench's cache dir, or none when it cannot be written. */
export function runRecordFile(suite: Suite): string | undefined {
  const dir = benchCacheDir('suites');
  return dir ? path.join(dir, `${suite.definition.name}.json`) : undefined;
}

const definitionHash = (suite: Suite) => createHash('sha256').update(JSON.stringify(suite.definition)).digest('hex').slice(0, 16);

function readRecord(file: string | undefined): Recorded[] {
  if (!file) return [];
  try {
    return recordSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).runs;
  } catch {
    return []; // none yet, or unreadable: as if never run
  }
}

/** This machine's earlier runs of the suite as defined now, at this scale, oldest first. */
export function earlierRuns(suite: Suite, scale: number, file = runRecordFile(suite)): EarlierRun[] {
  const machine = describeMachine();
  const definition = definitionHash(suite);
  return readRecord(file)
    .filter(
      (run) =>
        run.hostname === machine.hostname &&
        run.cpuModel === machine.cpuModel &&
        run.cpus === machine.cpus &&
        run.definition === definition &&
        run.scale === scale,
    )
    .map((run) => ({ finishedAt: run.finishedAt, ratios: run.ratios }));
}

/** Keeps a finished run's per-round ratios for the runs after it (the last RECORDED_RUNS of the suite); the file, if written. */
export function recordRun(
  suite: Suite,
  scale: number,
  finishedAt: string,
  ratios: Readonly<Record<string, readonly number[]>>,
  file = runRecordFile(suite),
): string | undefined {
  if (!file || Object.keys(ratios).length === 0) return undefined;
  const machine = describeMachine();
  const run: Recorded = {
    finishedAt,
    hostname: machine.hostname,
    cpuModel: machine.cpuModel,
    cpus: machine.cpus,
    definition: definitionHash(suite),
    scale,
    ratios: Object.fromEntries(Object.entries(ratios).map(([key, values]) => [key, [...values]])),
  };
  try {
    writeFileSync(file, `${JSON.stringify({ runs: [...readRecord(file), run].slice(-RECORDED_RUNS) }, null, 2)}\n`);
    return file;
  } catch {
    return undefined; // a cache that cannot be written loses the record, not the run
  }
}
