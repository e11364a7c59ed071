import type { ReporterFactory } from '@bench/core';
import { renderSuite } from './render-suite.js';
import { findSuite } from './suite-registry.js';

/** The article's own tables, its figures beside today's: what `bench suite` prints, and `bench report` of a suite's results. */
export const suiteReporter: ReporterFactory = (context) => ({
  name: 'suite',
  async onRunEnd(doc) {
    if (!doc.suite || (doc.results.length === 0 && !doc.clientTimings?.length)) return;
    const text = renderSuite(findSuite(doc.suite.name), doc, new Map(Object.entries(doc.suite.skipped)));
    const took = doc.finishedAt ? (Date.parse(doc.finishedAt) - Date.parse(doc.startedAt)) / 1000 : undefined;
    const footer =
      took !== undefined
        ? `\nThe run took ${took >= 120 ? `${(took / 60).toFixed(1)} min` : `${took.toFixed(0)} s`} on ${doc.machine.cpus} cores (${doc.machine.cpuModel}), client and servers sharing them.${doc.complete ? '' : ' It did not complete: the tables show what finished.'}\n`
        : '';
    if (!context.outFile) return context.stdout(text + footer);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(context.outFile, text + footer);
  },
});
