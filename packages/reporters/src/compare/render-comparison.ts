import { generatorBoundLine, verdictLine, type Comparison, type MetricComparison } from '@bench/core';
import { functionChangesMarkdown } from '../profile/function-changes.js';

const number = (value: number, digits = 2) => value.toLocaleString('en-US', { maximumFractionDigits: digits });
const signed = (value: number) => `${value > 0 ? '+' : ''}${value.toFixed(1)}%`;

function side(m: MetricComparison['base']): string {
  if (m.n === 0) return 'no successful run';
  return m.n === 1 ? `${number(m.median)} (1 run)` : `${number(m.median)} [${number(m.min)}-${number(m.max)}] (${m.n} runs)`;
}

/** The comparison as markdown: one row per cell and metric, medians with ranges, change, interval, verdict. */
export function renderComparisonMarkdown(c: Comparison): string {
  const intro = c.paired
    ? `Comparing ${c.paired.head} (head) with ${c.paired.base} (base), interleaved in one run (${c.base.startedAt}${c.paired.seed !== undefined ? `, seed ${c.paired.seed}` : ''}); per-side medians [min-max]; the change is the median of the per-round ratios head/base, with its 95% bootstrap interval; noise threshold ±${c.noisePercent}%.`
    : `Comparing ${c.base.startedAt} (base) with ${c.head.startedAt} (head); medians of the repeats, [min-max], 95% bootstrap interval of the change; noise threshold ${c.noisePercent}%.`;
  const out: string[] = [
    intro,
    '',
    '| scenario | target | c | metric | base | head | change | 95% interval | verdict |',
    '| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const cell of c.cells) {
    for (const m of cell.metrics) {
      const interval = m.interval ? `${signed(m.interval[0])} .. ${signed(m.interval[1])}` : '-';
      out.push(
        `| ${cell.scenario} | ${cell.target} | ${cell.concurrency} | ${m.metric}${m.metric === 'rps' ? '' : ' ms'} | ${side(m.base)} | ${side(m.head)} | ${signed(m.changePercent)} | ${interval} | ${m.verdict} |`,
      );
    }
  }
  out.push('');
  if (c.rpsGeometricMeanRatio !== undefined)
    out.push(
      `Geometric mean of the rps ratios (head/base) over ${c.cells.filter((cell) => cell.step === undefined).length} cell(s): ${c.rpsGeometricMeanRatio.toFixed(3)}.`,
    );
  // the statistical basis of every verdict, one line each
  for (const cell of c.cells)
    for (const m of cell.metrics)
      out.push(`- basis, ${cell.scenario} ${cell.target} c=${cell.concurrency} ${m.metric}: ${m.basis} -> ${m.verdict}`);
  const reasons = [...new Set(c.cells.flatMap((cell) => cell.metrics.flatMap((m) => (m.reason ? [`${m.verdict}: ${m.reason}`] : []))))];
  for (const reason of reasons) out.push(`- ${reason}`);
  for (const cell of c.cells) {
    const line = generatorBoundLine(cell);
    if (line) out.push(`- ${line}`);
  }
  for (const cell of c.cells) {
    const line = verdictLine(cell);
    if (line) out.push(`- ${line}`);
  }
  for (const key of c.onlyInBase) out.push(`- only in base: ${key}`);
  for (const key of c.onlyInHead) out.push(`- only in head: ${key}`);
  for (const warning of c.warnings) out.push(`- warning: ${warning}`);
  if (c.limits.length > 0) {
    out.push(
      c.broken.length === 0
        ? `Limits ${c.limits.map((l) => l.text).join(', ')}: none broken.`
        : `Limits broken: ${c.broken.map((b) => `${b.scenario}/${b.target} c=${b.concurrency} ${b.limit} (${signed(b.changePercent)})`).join('; ')}.`,
    );
  }
  for (const u of c.undecided)
    out.push(`- undecided: ${u.scenario}/${u.target} c=${u.concurrency} ${u.limit} has no verdict (${u.verdict}): ${u.remedy}`);
  out.push(...functionChangesMarkdown(c));
  return `${out.join('\n')}\n`;
}
