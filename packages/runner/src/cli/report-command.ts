import { readResultsFile, replayDocument } from '../results-file.js';
import type { ReporterSpec } from '../reporter-spec.js';
import { loadReporters, parseReporterOptions } from '../reporters.js';

/** Re-renders a results file through any reporter. */
export async function reportCommand(file: string, flags: { reporterOption?: string[] }, specs: readonly ReporterSpec[]): Promise<void> {
  const doc = readResultsFile(file);
  const reporters = await loadReporters(specs, parseReporterOptions(flags.reporterOption));
  await replayDocument(doc, reporters);
}
