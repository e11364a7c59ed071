import { writeFileAtomically } from '../json.js';
import { machineLines } from '../machine-line.js';
import type { ReporterFactory, RunDocument } from '@bench/core';

/** How long the run took, on what: the line under a suite's tables. */
function footer(doc: RunDocument): string {
  if (!doc.finishedAt) return '';
  const took = (Date.parse(doc.finishedAt) - Date.parse(doc.startedAt)) / 1000;
  const shown = took >= 120 ? `${(took / 60).toFixed(1)} min` : `${took.toFixed(0)} s`;
  const where = doc.hosts
    ? `, on several hosts.\n\n${machineLines(doc).join('\n')}`
    : ` on ${doc.machine.cpus} cores (${doc.machine.cpuModel}), client and servers sharing them.`;
  return `\nThe run took ${shown}${where}${doc.complete ? '' : ' It did not complete: the tables show what finished.'}\n`;
}

/**
 * The sections plugins contribute, as text, and nothing of the run's own tables: for a suite, the article's tables
 * with its figures beside today's (what `bench suite` prints, and `bench report -r suite` of a suite's results).
 */
export const suiteReporter: ReporterFactory = (context) => ({
  name: 'suite',
  async onRunEnd(doc) {
    if (doc.results.length === 0 && !doc.clientTimings?.length) return;
    const parts = (context.sections ?? []).flatMap((section) => section.markdown(doc) ?? []);
    if (parts.length === 0) return;
    const text = parts.join('\n') + footer(doc);
    if (!context.outFile) return context.stdout(text);
    await writeFileAtomically(context.outFile, text);
  },
});
