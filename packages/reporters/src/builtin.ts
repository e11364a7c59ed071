import type { ReporterFactory } from '@bench/core';
import { abReporter } from './ab.js';
import { jsonReporter } from './json.js';
import { markdownReporter } from './markdown.js';

/** Built-in reporters by name. */
export const builtinReporters = {
  markdown: markdownReporter,
  json: jsonReporter,
  ab: abReporter,
} satisfies Record<string, ReporterFactory>;

export type BuiltinReporterName = keyof typeof builtinReporters;
