import path from 'node:path';
import type { ReporterFactory, RunDocument } from '@bench/core';
import { chartFigure, DEFAULT_HTML_FILE, renderRunHtml, writeFileAtomically, type ChartSpec } from '@bench/reporters';
import { marked } from 'marked';
import { renderSuite } from './render-suite.js';
import { measuredValue, publishedNumber, publishedValue, tableColumns, tableRows } from './suite-cells.js';
import { findSuite, type Suite } from './suite-registry.js';

const round = (v: number) => Math.round(v * 1000) / 1000;

/** Each table's rows divided by its reference row, in the article and today, on the table's first column measured here. */
function ratioCharts(suite: Suite, doc: RunDocument): string[] {
  const charts: string[] = [];
  for (const table of suite.definition.tables) {
    const published = suite.published.tables.find((t) => t.id === table.published);
    if (!published || !table.reference || table.publishedOnly) continue;
    const rows = tableRows(published, table).filter((r) => !r.extra);
    const reference = rows.find((r) => r.label === table.reference);
    const column = tableColumns(published, table).find((c) =>
      rows.some((r) => typeof measuredValue(doc, suite.definition, table, r, c) === 'number'),
    );
    if (!reference || !column) continue;
    const thenRef = publishedNumber(publishedValue(published, reference.label, column));
    const nowRef = measuredValue(doc, suite.definition, table, reference, column);
    const ratios = rows.map((row) => {
      const then = publishedNumber(publishedValue(published, row.label, column));
      const now = measuredValue(doc, suite.definition, table, row, column);
      return {
        label: row.label,
        then: then !== undefined && thenRef ? round(then / thenRef) : null,
        now: typeof now === 'number' && typeof nowRef === 'number' && nowRef > 0 ? round(now / nowRef) : null,
      };
    });
    const spec: ChartSpec = {
      kind: 'bars',
      title: `${published.title}: ${column.label} divided by ${table.reference}, then and now`,
      yLabel: 'ratio',
      x: ratios.map((_, i) => i),
      labels: ratios.map((r) => r.label),
      series: [
        { label: 'then (the article)', values: ratios.map((r) => r.then), align: -1 },
        { label: 'now (measured here)', values: ratios.map((r) => r.now), align: 1 },
      ],
    };
    charts.push(chartFigure(spec, { header: ['row', 'then', 'now'], rows: ratios.map((r) => [r.label, r.then ?? '-', r.now ?? '-']) }));
  }
  return charts;
}

/** A suite run's page: the article's tables with its figures beside today's, its ratios as charts, then the run's own report. */
export function renderSuiteHtml(doc: RunDocument): string {
  if (!doc.suite) return renderRunHtml(doc);
  const suite = findSuite(doc.suite.name);
  const tables = marked.parse(renderSuite(suite, doc, new Map(Object.entries(doc.suite.skipped))), { async: false });
  const charts = ratioCharts(suite, doc);
  return renderRunHtml(
    doc,
    `<section class="suite">${tables}</section>${charts.length ? `<h2>Ratios</h2><div class="grid">${charts.join('\n')}</div>` : ''}`,
  );
}

/** `-r html` through the runner: a suite's results get the article's tables and ratio charts on the page. */
export const htmlReporterWithSuites: ReporterFactory = (context) => ({
  name: 'html',
  async onRunEnd(doc) {
    if (doc.results.length === 0) return;
    const file = context.outFile ?? DEFAULT_HTML_FILE;
    await writeFileAtomically(file, renderSuiteHtml(doc));
    if (!context.outFile) process.stderr.write(`bench: HTML report written to ${path.resolve(file)}\n`);
  },
});
