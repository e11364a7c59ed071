import type { ReportSection, RunDocument } from '@bench/core';
import { findSuite, measuredValue, publishedNumber, publishedValue, tableColumns, tableRows, type Suite } from '@bench/suites';
import { chartFigure, type ChartSpec } from '../html/chart.js';
import { renderSuite } from './render-suite.js';
import { renderTechempower } from './render-techempower.js';

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

const tablesOf = (suite: Suite, doc: RunDocument & { suite: NonNullable<RunDocument['suite']> }) =>
  suite.definition.kind === 'techempower'
    ? renderTechempower(suite, doc)
    : renderSuite(suite, doc, new Map(Object.entries(doc.suite.skipped)));

/**
 * A suite run's own section: the article's tables with its figures beside today's (the text `bench suite` prints),
 * and on the HTML page those tables and each table's ratios as charts, above the run's report.
 */
export const suiteSection: ReportSection = {
  name: 'suite',
  markdown(doc) {
    return doc.suite ? tablesOf(findSuite(doc.suite.name), { ...doc, suite: doc.suite }) : undefined;
  },
  async html(doc) {
    if (!doc.suite) return undefined;
    const suite = findSuite(doc.suite.name);
    // loaded for a suite's page only: at the top it was a twentieth of every command's start
    const { marked } = await import('marked');
    const tables = marked.parse(tablesOf(suite, { ...doc, suite: doc.suite }), { async: false });
    const charts = ratioCharts(suite, doc);
    return `<section class="suite">${tables}</section>${charts.length ? `<h2>Ratios</h2><div class="grid">${charts.join('\n')}</div>` : ''}`;
  },
};
