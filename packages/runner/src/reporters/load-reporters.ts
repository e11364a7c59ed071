import path from 'node:path';
import { assertWritableFile, errors, type Reporter, type ReportSection } from '@bench/core';
import { builtinReporters, loadReporter, suiteSection } from '@bench/reporters';
import type { ReporterSpec } from './reporter-spec.js';

/** Every reporter a name selects: the reporters package's registry. */
export const builtinReporterNames: readonly string[] = Object.keys(builtinReporters);

/** What plugins add to the reports that show sections: a suite run's article tables. */
const contributedSections: readonly ReportSection[] = [suiteSection];

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
    const context = { options, stdout, sections: contributedSections, ...(spec.out ? { outFile: path.resolve(spec.out) } : {}) };
    reporters.push(await loadReporter(spec.name, context));
  }
  return reporters;
}
