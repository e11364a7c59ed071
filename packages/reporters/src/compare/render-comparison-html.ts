import {
  mergeLatencyHistograms,
  percentileCurve,
  type CellComparison,
  type CellResult,
  type Comparison,
  type RunDocument,
} from '@bench/core';
import { chartFigure, nines, type ChartSpec } from '../html/chart.js';
import { escapeHtml, htmlTable, renderPage } from '../html/page.js';
import { profileComparisonSection } from '../profile/flame-html.js';

const signed = (value: number) => `${value > 0 ? '+' : ''}${value.toFixed(1)}%`;
const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;

/** The runs of one compared cell on one side (for a paired comparison, that side's target in the one run). */
function sideRuns(doc: RunDocument, cell: CellComparison, target: string): CellResult[] {
  return doc.results.filter(
    (r) => r.status === 'ok' && r.scenario === cell.scenario && r.target === target && r.concurrency === cell.concurrency,
  );
}

function distribution(cell: CellComparison, sides: ReadonlyArray<{ label: string; runs: readonly CellResult[] }>): string {
  const curves = sides.flatMap((side) => {
    const histograms = side.runs.flatMap((r) => (r.histogram ? [r.histogram] : []));
    if (histograms.length === 0) return [];
    const merged = mergeLatencyHistograms(histograms);
    const curve = percentileCurve(merged).filter((p) => p.percentile < 100);
    const row = [side.label, merged.totalCount, ...[50, 90, 99, 99.9, 99.99].map((p) => round(merged.getValueAtPercentile(p) / 1000, 3))];
    merged.destroy();
    return [{ label: side.label, curve, row }];
  });
  if (curves.length < 2)
    return '<p class="note">No latency histograms on both sides (results schema 1): the distributions are not drawn.</p>';
  const spec: ChartSpec = {
    kind: 'percentile',
    title: `${cell.scenario} c=${cell.concurrency}: latency by percentile, base and head`,
    xLabel: 'percentile',
    yLabel: 'ms',
    x: curves[0]!.curve.map((p) => round(nines(p.percentile), 4)),
    series: curves.map((c, i) => ({ label: c.label, values: c.curve.map((p) => p.ms), ...(i === 0 ? { dash: [6, 3] } : {}) })),
  };
  return chartFigure(spec, {
    header: ['side', 'requests', 'p50 ms', 'p90 ms', 'p99 ms', 'p99.9 ms', 'p99.99 ms'],
    rows: curves.map((c) => c.row),
  });
}

function rpsByRound(cell: CellComparison): string {
  const rps = cell.metrics.find((m) => m.metric === 'rps');
  if (!rps) return '';
  const rounds = Math.max(rps.base.samples.length, rps.head.samples.length);
  const x = Array.from({ length: rounds }, (_, i) => i + 1);
  const values = (samples: readonly number[]) => x.map((_, i) => samples[i] ?? null);
  const spec: ChartSpec = {
    kind: 'time',
    title: `${cell.scenario} ${cell.target} c=${cell.concurrency}: rps of each run, base and head`,
    xLabel: 'run',
    yLabel: 'rps',
    x,
    series: [
      { label: 'base', values: values(rps.base.samples), dash: [6, 3] },
      { label: 'head', values: values(rps.head.samples) },
    ],
  };
  return chartFigure(spec, {
    header: ['run', 'base rps', 'head rps'],
    rows: x.map((run, i) => [run, rps.base.samples[i] ?? '-', rps.head.samples[i] ?? '-']),
  });
}

function verdictTable(c: Comparison): string {
  const rows = c.cells.flatMap((cell) =>
    cell.metrics.map(
      (m) =>
        `<tr><td>${escapeHtml(cell.scenario)}</td><td>${escapeHtml(cell.target)}</td><td>${cell.concurrency}</td><td>${m.metric}</td><td>${round(m.base.median)}</td><td>${round(m.head.median)}</td><td>${signed(m.changePercent)}</td><td>${m.interval ? `${signed(m.interval[0])} .. ${signed(m.interval[1])}` : '-'}</td><td class="${m.verdict === 'regressed' ? 'fail' : m.verdict === 'improved' ? 'pass' : ''}">${escapeHtml(m.verdict)}</td></tr>`,
    ),
  );
  return `<table class="summary"><thead><tr><th>scenario</th><th>target</th><th>c</th><th>metric</th><th>base</th><th>head</th><th>change</th><th>95% interval</th><th>verdict</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** A comparison as one self-contained HTML page: the verdict table, then base against head on the same axes. */
export function renderComparisonHtml(c: Comparison, base: RunDocument, head: RunDocument, markdown: string): string {
  const title = c.paired ? `${c.paired.head} against ${c.paired.base}` : `${c.head.startedAt} against ${c.base.startedAt}`;
  const body = [
    `<h1>bench compare: ${escapeHtml(title)}</h1>`,
    `<p class="meta">Base: <code>${escapeHtml(c.base.command || c.base.startedAt)}</code></p>`,
    `<p class="meta">Head: <code>${escapeHtml(c.head.command || c.head.startedAt)}</code></p>`,
    `<h2>Verdicts (noise threshold ±${c.noisePercent}%)</h2>`,
    verdictTable(c),
    `<details><summary>statistical basis, limits and warnings (as the markdown report says them)</summary><pre>${escapeHtml(markdown)}</pre></details>`,
  ];
  for (const cell of c.cells) {
    const [baseTarget, headTarget] = c.paired ? [c.paired.base, c.paired.head] : [cell.target, cell.target];
    const sides = [
      { label: `base (${baseTarget})`, runs: sideRuns(base, cell, baseTarget) },
      { label: `head (${headTarget})`, runs: sideRuns(head, cell, headTarget) },
    ];
    body.push(
      `<h2>${escapeHtml(`${cell.scenario} ${cell.target} c=${cell.concurrency}`)}</h2>`,
      `<div class="grid">`,
      rpsByRound(cell),
      distribution(cell, sides),
      `</div>`,
      profileComparisonSection(cell),
    );
  }
  if (c.cells.length === 0) body.push(htmlTable(['note'], [['no cell in common']]));
  return renderPage(`bench compare: ${title}`, body.join('\n'));
}
