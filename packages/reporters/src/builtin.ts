import type { ReporterFactory } from '@bench/core';
import { abReporter } from './ab.js';
import { jsonReporter } from './json.js';
import { markdownReporter } from './markdown.js';
import { htmlReporter } from './html/html-reporter.js';

/** Built-in reporters by name. */
export const builtinReporters = {
  markdown: markdownReporter,
  json: jsonReporter,
  ab: abReporter,
  html: htmlReporter,
} satisfies Record<string, ReporterFactory>;

export type BuiltinReporterName = keyof typeof builtinReporters;
