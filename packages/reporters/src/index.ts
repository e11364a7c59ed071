export {
  builtinReporters,
  formatsFor,
  outputFormat,
  type BuiltinReporterName,
  type OutputFormat,
  type ComparisonView,
  type HistoryView,
} from './registry.js';
export { loadReporter } from './load-reporter.js';
export { renderAbText, abReporter } from './ab.js';
export { renderMarkdown, markdownReporter } from './markdown.js';
export { jsonReporter, writeJsonAtomically, writeFileAtomically } from './json.js';
// The HTML report and its parts, for pages built on it (comparisons, history).
export { htmlReporter, DEFAULT_HTML_FILE } from './html/html-reporter.js';
export { renderRunHtml, renderRunBody } from './html/run-report.js';
export { renderPage, htmlTable, escapeHtml } from './html/page.js';
export { chartFigure, numbersTable, downsampleForDrawing, nines, type ChartSpec, type ChartTable } from './html/chart.js';
export { spreadLines, SPREAD_CV_PERCENT, OUTLIER_MODIFIED_Z } from './repeat-spread.js';
export { sparkline, type SparklineOptions } from './sparkline.js';
// Comparisons, histories and selfbench tables.
export { renderComparisonMarkdown } from './compare/render-comparison.js';
export { renderComparisonHtml } from './compare/render-comparison-html.js';
export { renderHistoryShow, renderHistoryCheck, damagedLinesNote, commitRange, formatPValue } from './history/render-history.js';
export { renderHistoryPage } from './history/history-page.js';
export { renderSelfbench } from './selfbench/render-selfbench.js';
// A suite's tables: the section a suite run contributes to the text and HTML reports.
export { suiteSection } from './suite/suite-section.js';
export { renderSuite } from './suite/render-suite.js';
export { tfbResults, tfbScores, wrkLatency, TFB_TYPE_NAMES, type TfbResults, type TfbRawEntry } from './suite/tfb-results.js';
export { suiteRatios } from './suite/suite-grid.js';
export { showRatio, spreadOf, type RatioSpread } from './suite/ratio-spread.js';
