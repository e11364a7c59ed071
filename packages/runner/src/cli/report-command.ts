import { readResultsFile, replayDocument } from '../reporters/results-file.js';
import type { reporterSpecCollector } from '../reporters/reporter-spec.js';
import { loadReporters, parseReporterOptions } from '../reporters/load-reporters.js';

/** Re-renders a results file through any reporter. */
export async function reportCommand(
  file: string,
  flags: { reporterOption?: string[] },
  collector: ReturnType<typeof reporterSpecCollector>,
): Promise<void> {
  const doc = readResultsFile(file);
  // a suite's results render as the article's tables unless another reporter is named
  const reporters = await loadReporters(
    collector.specs([{ name: doc.suite ? 'suite' : 'markdown' }]),
    parseReporterOptions(flags.reporterOption),
  );
  await replayDocument(doc, reporters);
}
