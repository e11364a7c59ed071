import { median, stepCells, type CellResult, type RunDocument, type ThresholdResult, z } from '@bench/core';

const latency = (key: keyof CellResult['latency']) => (r: CellResult) => r.latency[key];

/** The result fields a threshold may name (latencies in milliseconds; RSS slope in MB per minute; drifts in percent). */
export const thresholdFields = {
  rps: (r: CellResult) => r.rps,
  requests: (r: CellResult) => r.requests,
  failed: (r: CellResult) => r.failed,
  non2xx: (r: CellResult) => r.non2xx,
  timeouts: (r: CellResult) => r.timeouts,
  mean: latency('mean'),
  p50: latency('p50'),
  p66: latency('p66'),
  p75: latency('p75'),
  p80: latency('p80'),
  p90: latency('p90'),
  p95: latency('p95'),
  p98: latency('p98'),
  p99: latency('p99'),
  p999: latency('p999'),
  max: latency('max'),
  // soak verdicts: absent on a cell without a series (too short, or an engine that does not count per second)
  rssSlopeMBPerMin: (r: CellResult) => r.soak?.rss?.slopeMBPerMin,
  rpsDriftPercent: (r: CellResult) => r.soak?.rps?.driftPercent,
  p99DriftPercent: (r: CellResult) => r.soak?.p99?.driftPercent,
} as const satisfies Record<string, (r: CellResult) => number | undefined>;

export type ThresholdField = keyof typeof thresholdFields;

const EXPRESSION = /^\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/;

const expression = z.string().regex(EXPRESSION, 'an expression such as ">1000", "<50" or "==0" (operators < <= > >= == !=)');

/** thresholds: { "<selector>": { <field>: "<expression>" | ["<expression>", ...] } }, as k6 writes them. */
export const thresholdsSchema = z.record(
  z.string().regex(/^(\*|[^/\s]+)(\/(\*|[^/\s]+))?$/, 'a selector: "*", "scenario", "scenario/target" or "*/target"'),
  z
    .partialRecord(
      z.enum(Object.keys(thresholdFields) as [ThresholdField, ...ThresholdField[]]),
      z.union([expression, z.array(expression).min(1)]),
    )
    .refine((o) => Object.keys(o).length > 0, 'at least one field'),
);

export type ThresholdsSpec = z.infer<typeof thresholdsSchema>;

function holds(actual: number, text: string): boolean {
  const [, op, raw] = EXPRESSION.exec(text) ?? [];
  const limit = Number(raw);
  switch (op) {
    case '<':
      return actual < limit;
    case '<=':
      return actual <= limit;
    case '>':
      return actual > limit;
    case '>=':
      return actual >= limit;
    case '==':
      return actual === limit;
    default:
      return actual !== limit;
  }
}

function selects(selector: string, scenario: string, target: string): boolean {
  const [s, t] = selector.split('/');
  return (s === '*' || s === scenario) && (t === undefined || t === '*' || t === target);
}

/**
 * Every threshold against every cell it selects; a repeated cell is judged by the median of its
 * repeats, and a cell that failed fails every threshold that selects it.
 */
export function evaluateThresholds(spec: ThresholdsSpec, doc: RunDocument): ThresholdResult[] {
  const cells = new Map<string, CellResult[]>();
  const add = (r: CellResult, step?: string) => {
    const key = `${r.scenario}\u0000${r.target}\u0000${r.concurrency}${step !== undefined ? `\u0000${step}` : ''}`;
    cells.set(key, [...(cells.get(key) ?? []), r]);
  };
  const steps = new Set<CellResult>();
  for (const r of doc.results) {
    add(r);
    for (const step of stepCells(r, (name) => name)) {
      steps.add(step);
      add(step, step.scenario);
    }
  }
  const out: ThresholdResult[] = [];
  for (const [selector, fields] of Object.entries(spec)) {
    for (const runs of cells.values()) {
      const first = runs[0];
      if (!first || !selects(selector, first.scenario, first.target)) continue;
      // a workload's step is selected by its own name only ("create-item/app"), never by a wildcard
      if (steps.has(first) && selector.split('/')[0] !== first.scenario) continue;
      const ok = runs.filter((r) => r.status === 'ok');
      for (const [field, expressions] of Object.entries(fields)) {
        const values = ok.map(thresholdFields[field as ThresholdField]).filter((v): v is number => v !== undefined);
        // a cell that failed, or has no value for the field, fails the threshold
        const actual = ok.length === runs.length && values.length === runs.length ? median(values) : undefined;
        for (const expr of [expressions].flat()) {
          out.push({
            selector,
            scenario: first.scenario,
            target: first.target,
            concurrency: first.concurrency,
            field,
            expression: expr.trim(),
            ...(actual !== undefined ? { actual } : {}),
            ok: actual !== undefined && holds(actual, expr),
          });
        }
      }
    }
  }
  return out;
}
