import path from 'node:path';
import { assertWritableFile, errors, type Reporter, type ReporterFactory } from '@bench/core';
import { builtinReporters, loadReporter } from '@bench/reporters';
import type { ReporterSpec } from './reporter-spec.js';
import { suiteReporter } from '../suites/suite-reporter.js';
import { htmlReporterWithSuites } from '../suites/render-suite-html.js';

// Reporters that need the runner's own knowledge (the suites' published figures), beside @bench/reporters' built-ins.
const runnerReporters: Readonly<Record<string, ReporterFactory>> = { suite: suiteReporter, html: htmlReporterWithSuites };

/** Every reporter a name selects: @bench/reporters' registry and the runner's own. */
export const builtinReporterNames: readonly string[] = [...new Set([...Object.keys(builtinReporters), ...Object.keys(runnerReporters)])];

/** `--reporter-option key=value` pairs as an object. */
export function parseReporterOptions(pairs: readonly string[] = []): Record<string, string> {
  const options: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw errors.usage(`--reporter-option "${pair}" must look like key=value`);
    options[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return options;
}

/**
 * Builds every reporter, after checking that each output file can be written: a bad --out is bad
 * input, found before anything starts.
 */
export async function loadReporters(
  specs: readonly ReporterSpec[],
  extraOptions: Readonly<Record<string, unknown>> = {},
  stdout: (text: string) => void = (text) => void process.stdout.write(text),
): Promise<Reporter[]> {
  for (const spec of specs) if (spec.out) assertWritableFile(spec.out);
  const reporters: Reporter[] = [];
  for (const spec of specs) {
    const options = { ...spec.options, ...extraOptions };
    const context = { options, stdout, ...(spec.out ? { outFile: path.resolve(spec.out) } : {}) };
    const own = runnerReporters[spec.name];
    reporters.push(own ? await own(context) : await loadReporter(spec.name, context));
  }
  return reporters;
}
