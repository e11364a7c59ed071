export { builtinReporters, type BuiltinReporterName } from './builtin.js';
export { loadReporter } from './load-reporter.js';
export { renderAbText, abReporter } from './ab.js';
export { renderMarkdown, markdownReporter } from './markdown.js';
export { jsonReporter, writeJsonAtomically } from './json.js';
