import type { CellResult } from '@bench/core';
import { inferredLegend, mergedProfiles, percentText, topFunctions } from './cell-profiles.js';

const TOP = 10;

/** Markdown: per profiled cell, its top functions by self time. */
export function profileMarkdown(results: readonly CellResult[]): string[] {
  const out: string[] = [];
  for (const profile of mergedProfiles(results)) {
    out.push(
      `#### CPU profile: ${profile.label}`,
      '',
      `${profile.samples} samples (${profile.source}); the top functions by self time:`,
      '',
    );
    const rows = topFunctions(profile.stacks, TOP);
    if (rows.length === 0) out.push('No samples were taken.');
    else {
      out.push('| function | self | total |', '| --- | ---: | ---: |');
      for (const row of rows)
        out.push(
          `| \`${row.name.replace(/\|/g, '\\|').replace(/`/g, "'")}\` | ${percentText(row.selfPercent)} | ${percentText(row.totalPercent)} |`,
        );
      const legend = inferredLegend(rows.map((row) => row.name));
      if (legend) out.push('', `- ${legend}`);
    }
    for (const note of profile.notes) out.push('', `- ${note}`);
    out.push('');
  }
  return out;
}

/** ab's text: the top functions by self time under the cell's block. */
export function profileAbLines(result: CellResult): string[] {
  const [profile] = mergedProfiles([result]);
  if (!profile) return [];
  const lines = [
    '',
    `Server CPU profile (${profile.samples} samples, ${profile.source}), top functions by self time:`,
    '   self   total  function',
  ];
  const rows = topFunctions(profile.stacks, TOP);
  for (const row of rows)
    lines.push(`${percentText(row.selfPercent).padStart(7)} ${percentText(row.totalPercent).padStart(7)}  ${row.name}`);
  const legend = inferredLegend(rows.map((row) => row.name));
  if (legend) lines.push(legend);
  for (const note of profile.notes) lines.push(`bench note: ${note}`);
  return lines;
}
