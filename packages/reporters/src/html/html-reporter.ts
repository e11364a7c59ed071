import path from 'node:path';
import type { ReporterFactory } from '@bench/core';
import { writeFileAtomically } from '../json.js';
import { renderRunHtml } from './run-report.js';

/** Where `-r html` writes when no `-o` follows it: a page is no text for a terminal. */
export const DEFAULT_HTML_FILE = 'bench-report.html';

/** One self-contained HTML page (charts drawn offline by an inlined uPlot), written at the end of the run, with the sections plugins contribute above the run's report. */
export const htmlReporter: ReporterFactory = (context) => ({
  name: 'html',
  async onRunEnd(doc) {
    if (doc.results.length === 0) return;
    const file = context.outFile ?? DEFAULT_HTML_FILE;
    const sections = await Promise.all((context.sections ?? []).map(async (section) => section.html?.(doc)));
    await writeFileAtomically(file, renderRunHtml(doc, sections.filter((html) => html !== undefined).join('')));
    if (!context.outFile) process.stderr.write(`bench: HTML report written to ${path.resolve(file)}\n`);
  },
});
