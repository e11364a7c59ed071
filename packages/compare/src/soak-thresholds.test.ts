import { describe, expect, it } from 'vitest';
import type { CellResult, RunDocument } from '@bench/core';
import { evaluateThresholds, thresholdsSchema } from './thresholds.js';

const drift = (driftPercent: number) => ({ windowSeconds: 6, first: 100, last: 100 + driftPercent, driftPercent, p: 0.002 });
const cell = (target: string, soak?: CellResult['soak']) =>
  ({ scenario: 'hello', target, concurrency: 10, repeat: 1, status: 'ok', ...(soak ? { soak } : {}) }) as unknown as CellResult;
const doc = (results: CellResult[]) => ({ results }) as unknown as RunDocument;

describe('soak thresholds', () => {
  it('judge the RSS slope and the drifts, and fail a cell that has no soak verdict', () => {
    const spec = thresholdsSchema.parse({ '*': { rssSlopeMBPerMin: '<1', rpsDriftPercent: '>-10', p99DriftPercent: '<50' } });
    const leaking = cell('leaky', {
      seconds: 60,
      rss: { slopeMBPerMin: 4.1, r2: 0.97, startBytes: 1, endBytes: 2 },
      rps: drift(-20),
      p99: drift(10),
    });
    const results = evaluateThresholds(spec, doc([leaking, cell('short')]));
    expect(results.map((r) => `${r.target} ${r.field} ${r.actual} ${r.ok}`)).toEqual([
      'leaky rssSlopeMBPerMin 4.1 false',
      'leaky rpsDriftPercent -20 false',
      'leaky p99DriftPercent 10 true',
      'short rssSlopeMBPerMin undefined false',
      'short rpsDriftPercent undefined false',
      'short p99DriftPercent undefined false',
    ]);
  });
});
