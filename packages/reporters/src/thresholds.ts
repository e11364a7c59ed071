import type { RunDocument, ThresholdResult } from '@bench/core';
import { formatNumber } from './format.js';

/** "list-items/app c=10: p99 <250 (actual 12.3): pass", one line per threshold checked. */
export function thresholdLine(t: ThresholdResult): string {
  const actual = t.actual === undefined ? 'the cell failed' : `actual ${formatNumber(t.actual, 3)}`;
  return `${t.scenario}/${t.target} c=${t.concurrency}: ${t.field} ${t.expression} (${actual}, from "${t.selector}"): ${t.ok ? 'pass' : 'FAIL'}`;
}

/** Every threshold with pass/fail, and a count; empty when the run had none. */
export function thresholdLines(doc: RunDocument): string[] {
  const all = doc.thresholds ?? [];
  if (all.length === 0) return [];
  const failed = all.filter((t) => !t.ok).length;
  return [`Thresholds: ${all.length} checked, ${failed} failed.`, ...all.map(thresholdLine)];
}
