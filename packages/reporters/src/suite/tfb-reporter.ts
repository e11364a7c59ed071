import { errors, type ReporterFactory } from '@bench/core';
import { writeFileAtomically } from '../json.js';
import { tfbResults } from './tfb-results.js';

/**
 * `-r tfb`: a `bench suite techempower` run as TechEmpower's own results.json (to --out, else standard output), for
 * TFB's tools to read. A run of anything else is refused: TFB's file holds its seven test types only.
 */
const notTechempower = () =>
  errors.usage("-r tfb writes TechEmpower's results.json of a `bench suite techempower` run; this run is not one (use -r json)");

export const tfbReporter: ReporterFactory = (context) => ({
  name: 'tfb',
  // refused before any load: a run that is not TFB's suite has no results.json to give
  onRunStart(doc) {
    if (doc.suite?.name !== 'techempower') throw notTechempower();
  },
  async onRunEnd(doc) {
    const results = tfbResults(doc);
    if (!results) throw notTechempower();
    const text = `${JSON.stringify(results, null, 2)}\n`;
    if (context.outFile) await writeFileAtomically(context.outFile, text);
    else context.stdout(text);
  },
});
