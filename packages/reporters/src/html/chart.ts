import { escapeHtml, htmlTable } from './page.js';

/** What one chart draws; the browser script (assets/draw-charts.js) reads it. */
export interface ChartSpec {
  /** time: a line per series over seconds; percentile: latency by percentile on a log 1/(1-p) axis; bars: one bar per label. */
  readonly kind: 'time' | 'percentile' | 'bars';
  readonly title: string;
  readonly xLabel?: string;
  readonly yLabel?: string;
  readonly rightLabel?: string;
  readonly x: readonly number[];
  readonly series: ReadonlyArray<{
    readonly label: string;
    readonly values: ReadonlyArray<number | null>;
    readonly axis?: 'right';
    readonly dash?: readonly number[];
    /** bars: -1 draws this series' bar left of the label, 1 right of it (two series side by side). */
    readonly align?: -1 | 1;
  }>;
  /** bars: the category of each x (0, 1, ...). */
  readonly labels?: readonly string[];
  /** bars: each bar's low and high (the repeats' range). */
  readonly ranges?: ReadonlyArray<readonly [number, number] | null>;
  readonly maxY?: number;
  /** percentile: the highest log10(1/(1-p)) drawn. */
  readonly maxX?: number;
  /** time: shade x below this (the warm-up). */
  readonly shadeBefore?: number;
  /** Dashed vertical lines at these x (change points). */
  readonly markers?: readonly number[];
  readonly height?: number;
}

// Drawing more points than pixels shows nothing more; the data (the JSON results and the table) keep them all.
const MAX_DRAWN_POINTS = 720;

/** Averages neighbouring points until at most `max` remain (x is kept as each bucket's first). */
export function downsampleForDrawing(spec: ChartSpec, max = MAX_DRAWN_POINTS): ChartSpec {
  if (spec.kind !== 'time' || spec.x.length <= max) return spec;
  const size = Math.ceil(spec.x.length / max);
  const buckets = Math.ceil(spec.x.length / size);
  const x = Array.from({ length: buckets }, (_, b) => spec.x[b * size] ?? 0);
  const series = spec.series.map((s) => ({
    ...s,
    values: Array.from({ length: buckets }, (_, b) => {
      const part = s.values.slice(b * size, (b + 1) * size).filter((v): v is number => v !== null);
      return part.length ? part.reduce((a, v) => a + v, 0) / part.length : null;
    }),
  }));
  return { ...spec, x, series };
}

export interface ChartTable {
  readonly header: readonly string[];
  readonly rows: ReadonlyArray<readonly (string | number)[]>;
}

/**
 * A chart, and below it the same numbers as a table (for people who read them, and for screen readers);
 * charts that share one table (a cell's seconds) pass none and the caller puts it after them.
 */
export function chartFigure(spec: ChartSpec, table?: ChartTable): string {
  const data = JSON.stringify(downsampleForDrawing(spec)).replace(/</g, '\\u003c');
  const where = table ? 'in the table below it' : 'in the table after these charts';
  return [
    `<figure class="chart">`,
    `<figcaption>${escapeHtml(spec.title)}</figcaption>`,
    `<div data-chart role="img" aria-label="${escapeHtml(spec.title)}: chart; its numbers are ${where}"></div>`,
    `<script type="application/json">${data}</script>`,
    table ? numbersTable(table) : '',
    `</figure>`,
  ].join('\n');
}

/** A chart's numbers, folded away until asked for. */
export function numbersTable(table: ChartTable, summary = 'numbers'): string {
  return `<details><summary>${escapeHtml(summary)}</summary>${htmlTable(table.header, table.rows)}</details>`;
}

/** log10(1/(1-p)) for a percentile p in percent: 50 -> 0.301, 99 -> 2, 99.99 -> 4. */
export const nines = (percentile: number): number => (percentile >= 100 ? 6 : Math.log10(1 / (1 - percentile / 100)));
