import type { Comparison, ReporterFactory, RunDocument } from '@bench/core';
import type { History, HistorySeries, SeriesChanges } from '@bench/history';
import { abReporter } from './ab.js';
import { jsonReporter } from './json.js';
import { markdownReporter } from './markdown.js';
import { htmlReporter } from './html/html-reporter.js';
import { renderComparisonMarkdown } from './compare/render-comparison.js';
import { renderComparisonHtml } from './compare/render-comparison-html.js';
import { renderHistoryShow } from './history/render-history.js';
import { renderHistoryPage } from './history/history-page.js';
import { suiteReporter } from './suite/suite-reporter.js';
import { tfbReporter } from './suite/tfb-reporter.js';

/** What `bench compare` hands a format: the verdicts, and the two results documents they were read from. */
export interface ComparisonView {
  readonly comparison: Comparison;
  readonly base: RunDocument;
  readonly head: RunDocument;
}

/** What `bench history report` hands a format: the history read, its series, and the change points of each. */
export interface HistoryView {
  readonly history: History;
  readonly series: readonly HistorySeries[];
  readonly changes: readonly SeriesChanges[];
}

/** A built-in output format: the reporter of a run and, where the format can show them, a comparison and a history. */
export interface OutputFormat {
  /** Builds the reporter of `bench run`, `bench report` and `bench suite`. */
  readonly reporter: ReporterFactory;
  /** Renders `bench compare --format NAME`. */
  readonly comparison?: (view: ComparisonView) => string;
  /** Renders `bench history report --format NAME`. */
  readonly history?: (view: HistoryView) => string;
}

const asJson = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Built-in reporters by name: the one registry of output formats. */
export const builtinReporters = {
  markdown: {
    reporter: markdownReporter,
    comparison: ({ comparison }) => renderComparisonMarkdown(comparison),
    history: ({ series, changes }) => renderHistoryShow(series, changes, Number.MAX_SAFE_INTEGER),
  },
  json: {
    reporter: jsonReporter,
    comparison: ({ comparison }) => asJson(comparison),
    history: ({ history, series, changes }) =>
      asJson({ file: history.file, damaged: history.damaged, series, changes: changes.filter((c) => c.changes.length > 0) }),
  },
  ab: { reporter: abReporter },
  html: {
    reporter: htmlReporter,
    comparison: ({ comparison, base, head }) => renderComparisonHtml(comparison, base, head, renderComparisonMarkdown(comparison)),
    history: ({ history, series, changes }) => renderHistoryPage(history, series, changes),
  },
  suite: { reporter: suiteReporter },
  tfb: { reporter: tfbReporter },
} satisfies Record<string, OutputFormat>;

export type BuiltinReporterName = keyof typeof builtinReporters;

/** A built-in format by name; undefined for a name the registry lacks. */
export const outputFormat = (name: string): OutputFormat | undefined =>
  Object.hasOwn(builtinReporters, name) ? builtinReporters[name as BuiltinReporterName] : undefined;

/** The formats that can render a comparison, or a history: what `--format` accepts. */
export const formatsFor = (what: 'comparison' | 'history'): BuiltinReporterName[] =>
  (Object.keys(builtinReporters) as BuiltinReporterName[]).filter((name) => what in builtinReporters[name]);
