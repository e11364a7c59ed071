import { writeFileSync } from 'node:fs';
import { assertWritableFile, errors } from '@bench/core';
import { compare, parsePercent } from '../compare/compare.js';
import { renderComparisonMarkdown } from '../compare/render-comparison.js';
import { readResultsFile } from '../results-file.js';

/** `bench compare base.json head.json`: markdown or JSON; exit 1 when a --fail-if limit is broken beyond the noise. */
export async function compareCommand(
  baseFile: string,
  headFile: string,
  flags: { failIf?: string; noise: string; format: 'markdown' | 'json'; out?: string },
): Promise<void> {
  const noisePercent = parsePercent('--noise', flags.noise);
  if (flags.out) assertWritableFile(flags.out);
  const comparison = compare(readResultsFile(baseFile), readResultsFile(headFile), {
    ...(flags.failIf !== undefined ? { failIf: flags.failIf } : {}),
    noisePercent,
  });
  if (comparison.cells.length === 0)
    throw errors.compareInput(`${baseFile} and ${headFile} have no cell (scenario, target, concurrency) in common`);
  const text = flags.format === 'json' ? `${JSON.stringify(comparison, null, 2)}\n` : renderComparisonMarkdown(comparison);
  if (flags.out) writeFileSync(flags.out, text);
  else process.stdout.write(text);
  if (comparison.broken.length > 0) {
    const first = comparison.broken[0]!;
    throw errors.regression(
      `${comparison.broken.length} change(s) beyond --fail-if and the noise (first: ${first.scenario}/${first.target} c=${first.concurrency} ${first.limit}: ${first.changePercent.toFixed(1)}%)`,
    );
  }
}
