import { baseLineText, type CellComparison, type Comparison, type FunctionChange } from '@bench/core';
import { inferredLegend } from './cell-profiles.js';

const signed = (value: number) => `${value > 0 ? '+' : ''}${value.toFixed(1)}%`;

/** A function's change as the tables show it: "+38.0%" and "+30.1% .. +45.2%"; "new" (or "gone") when one side never ran it. */
export function functionChangeText(f: FunctionChange): { change: string; interval: string } {
  return {
    change: f.onlyIn === 'head' ? 'new' : f.onlyIn === 'base' ? 'gone' : f.changePercent === undefined ? 'from 0' : signed(f.changePercent),
    interval: f.interval ? `${signed(f.interval[0])} .. ${signed(f.interval[1])}` : '-',
  };
}

export const cellTitle = (cell: CellComparison) => `${cell.scenario} ${cell.target} c=${cell.concurrency}`;

/** Markdown: per profiled cell, the functions whose own CPU per request changed most. */
export function functionChangesMarkdown(c: Comparison): string[] {
  const out: string[] = [];
  for (const cell of c.cells) {
    if (!cell.profile) continue;
    out.push(
      '',
      `#### Where the CPU per request moved: ${cellTitle(cell)}`,
      '',
      `Each function's own CPU (self samples), in µs per request, medians of the ${c.paired ? 'rounds' : 'repeats'}; base ${cell.profile.base.samples} samples over ${cell.profile.base.requests} requests, head ${cell.profile.head.samples} over ${cell.profile.head.requests}.`,
      '',
      '| function | base µs | head µs | change | 95% interval |',
      '| --- | ---: | ---: | ---: | ---: |',
    );
    for (const f of cell.profile.functions) {
      const { change, interval } = functionChangeText(f);
      out.push(
        `| \`${f.name.replace(/\|/g, '\\|').replace(/`/g, "'")}\`${baseLineText(f)} | ${f.baseMicros.toFixed(2)} | ${f.headMicros.toFixed(2)} | ${change} | ${interval} |`,
      );
    }
    const legend = inferredLegend(cell.profile.functions.map((f) => f.name));
    if (legend) out.push('', `- ${legend}`);
  }
  return out;
}
