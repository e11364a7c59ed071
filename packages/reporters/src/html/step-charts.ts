import type { CellResult } from '@bench/core';
import { formatNumber } from '../format.js';
import { chartFigure, type ChartSpec } from './chart.js';

/**
 * A workload cell's steps over time: each step's rps and p99 per second (one line a step), with its table (share,
 * rps, percentiles, failures) under them; '' for a cell without steps.
 */
export function stepCharts(r: CellResult, title: string): string {
  const steps = (r.steps ?? []).filter((s) => s.series && s.series.length > 0);
  if (steps.length === 0) return '';
  const seconds = [...new Set(steps.flatMap((s) => s.series!.filter((p) => p.seconds >= 0.5).map((p) => p.t)))].sort((a, b) => a - b);
  const at = (step: (typeof steps)[number], t: number) => step.series!.find((p) => p.t === t);
  const spec = (label: string, yLabel: string, value: (p: NonNullable<ReturnType<typeof at>>) => number | null): ChartSpec => ({
    kind: 'time',
    title: `${title}: ${label} per second, step by step`,
    xLabel: 's',
    yLabel,
    x: seconds,
    series: steps.map((step) => ({
      label: step.name,
      values: seconds.map((t) => {
        const point = at(step, t);
        return point ? value(point) : null;
      }),
    })),
  });
  const table = {
    header: ['step', 'share %', 'requests', 'rps', 'p50 ms', 'p99 ms', 'max ms', 'failed', 'non-2xx'],
    rows: (r.steps ?? []).map((s) => [
      s.name,
      formatNumber(s.sharePercent, 1),
      s.requests,
      formatNumber(s.rps),
      s.latency.p50,
      s.latency.p99,
      s.latency.max,
      s.failed,
      s.non2xx,
    ]),
  };
  return [
    `<div class="grid">`,
    chartFigure(
      spec('rps', 'rps', (p) => p.rps),
      table,
    ),
    chartFigure(spec('p99', 'ms', (p) => p.latency?.p99 ?? null)),
    `</div>`,
  ].join('\n');
}
