import { writeFileSync } from 'node:fs';
import { assertWritableFile, culpritPhrase, errors, type Comparison, type RunDocument } from '@bench/core';
import { outputFormat, type BuiltinReporterName } from '@bench/reporters';
import { compare, comparePaired } from '@bench/compare';
import { readResultsFile } from '../reporters/results-file.js';
import { runOptionDeclarations } from '../options/declarations.js';

/** Its flags as commander gives them (options/command-table.ts: compare). */
export interface CompareFlags {
  failIf?: string;
  /** Percent, as bench run's --noise takes it (its declaration: its parser, its range, its default). */
  noise?: number;
  /** A reporter of the registry that renders comparisons (commander checks the choice). */
  format: BuiltinReporterName;
  out?: string;
  base?: string;
  head?: string;
  allowUndecided?: boolean;
}

/** Two files (base, head), or one run's two targets named by --base and --head (paired by round). */
function comparisonOf(docs: readonly RunDocument[], files: readonly string[], flags: CompareFlags, noisePercent: number): Comparison {
  const failIf = flags.failIf !== undefined ? { failIf: flags.failIf } : {};
  if (flags.base !== undefined || flags.head !== undefined) {
    if (flags.base === undefined || flags.head === undefined)
      throw errors.usage('--base and --head go together: name both targets of the run, e.g. --base app-main --head app-pr');
    if (files.length !== 1)
      throw errors.usage(
        '--base and --head compare two targets of one results file: give one file, e.g. `bench compare results.json --base app-main --head app-pr`',
      );
    return comparePaired(docs[0]!, { base: flags.base, head: flags.head }, { ...failIf, noisePercent });
  }
  if (files.length !== 2)
    throw errors.usage('give two results files (base, then head), or one with --base and --head naming two of its targets');
  const comparison = compare(docs[0]!, docs[1]!, { ...failIf, noisePercent });
  if (comparison.cells.length === 0)
    throw errors.compareInput(`${files[0]} and ${files[1]} have no cell (scenario, target, concurrency) in common`);
  return comparison;
}

/**
 * `bench compare`: markdown or JSON; exit 1 when a --fail-if limit is broken beyond the noise, 3 when a
 * --fail-if limit could not be checked (no verdict) unless --allow-undecided.
 */
export async function compareCommand(baseFile: string, headFile: string | undefined, flags: CompareFlags): Promise<void> {
  // bench run's --noise, and its default
  const noisePercent = flags.noise ?? runOptionDeclarations.noisePercent.default!;
  if (flags.out) assertWritableFile(flags.out);
  const files = headFile === undefined ? [baseFile] : [baseFile, headFile];
  const docs = files.map((file) => readResultsFile(file));
  const comparison = comparisonOf(docs, files, flags, noisePercent);
  if (comparison.cells.length === 0) throw errors.compareInput(`no cell of ${baseFile} was measured by both targets`);
  const render = outputFormat(flags.format)?.comparison;
  if (!render) throw errors.usage(`--format ${flags.format} cannot show a comparison`);
  const text = render({ comparison, base: docs[0]!, head: docs.at(-1)! });
  if (flags.out) writeFileSync(flags.out, text);
  else process.stdout.write(text);
  if (comparison.broken.length > 0) {
    const first = comparison.broken[0]!;
    // with profiles on both sides, the line names the function the CPU per request moved to
    const cell = comparison.cells.find(
      (c) => c.scenario === first.scenario && c.target === first.target && c.concurrency === first.concurrency,
    );
    const culprit = cell && culpritPhrase(cell);
    throw errors.regression(
      `${comparison.broken.length} change(s) beyond --fail-if and the noise (first: ${first.scenario}/${first.target} c=${first.concurrency} ${first.limit}: ${first.changePercent.toFixed(1)}%${culprit ? `; ${culprit}` : ''})`,
    );
  }
  if (comparison.undecided.length > 0 && !flags.allowUndecided) {
    const first = comparison.undecided[0]!;
    throw errors.undecided(
      comparison.undecided.length,
      `${first.scenario}/${first.target} c=${first.concurrency} ${first.limit} is ${first.verdict}`,
      first.remedy,
    );
  }
}
