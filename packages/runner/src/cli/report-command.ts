import { readResultsFile, replayDocument } from '../results-file.js';
import { loadReporters } from './run-command.js';
import type { ReporterSpec } from './reporter-specs.js';

/** Re-renders a results file through any reporter. */
export async function reportCommand(file: string, flags: { reporterOption?: string[] }, specs: readonly ReporterSpec[]): Promise<void> {
  const doc = readResultsFile(file);
  const reporters = await loadReporters(specs, flags.reporterOption);
  await replayDocument(doc, reporters);
}
