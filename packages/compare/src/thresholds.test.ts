import { describe, expect, it } from 'vitest';
import type { CellResult, RunDocument } from '@bench/core';
import { evaluateThresholds, thresholdsSchema } from './thresholds.js';

const cell = (scenario: string, target: string, rps: number, p99: number, repeat = 1, status: 'ok' | 'failed' = 'ok') =>
  ({
    scenario,
    target,
    concurrency: 10,
    repeat,
    status,
    rps,
    failed: 0,
    non2xx: 0,
    timeouts: 0,
    requests: 100,
    latency: { p99 },
  }) as unknown as CellResult;
const doc = (results: CellResult[]) => ({ results }) as unknown as RunDocument;

describe('thresholds', () => {
  it('checks each threshold against every cell its selector picks', () => {
    const results = evaluateThresholds(
      { '*': { rps: '>1000' }, 'hello/node': { p99: '<5' }, '*/php-fpm': { p99: ['<50', '<=10'] } },
      doc([cell('hello', 'node', 2000, 4), cell('hello', 'php-fpm', 900, 20)]),
    );
    expect(results.map((r) => `${r.selector} ${r.target} ${r.field}${r.expression} ${r.ok}`)).toEqual([
      '* node rps>1000 true',
      '* php-fpm rps>1000 false',
      'hello/node node p99<5 true',
      '*/php-fpm php-fpm p99<50 true',
      '*/php-fpm php-fpm p99<=10 false',
    ]);
  });

  it('judges a repeated cell by the median of its repeats, and fails a cell that failed', () => {
    const [median] = evaluateThresholds(
      { hello: { rps: '>=1000' } },
      doc([cell('hello', 'node', 900, 1, 1), cell('hello', 'node', 1000, 1, 2), cell('hello', 'node', 5000, 1, 3)]),
    );
    expect(median).toMatchObject({ actual: 1000, ok: true });
    const [failed] = evaluateThresholds({ hello: { failed: '==0' } }, doc([cell('hello', 'node', 0, 0, 1, 'failed')]));
    expect(failed).toMatchObject({ ok: false });
    expect(failed?.actual).toBeUndefined();
  });

  it('refuses expressions and fields it cannot check', () => {
    expect(thresholdsSchema.safeParse({ '*': { rps: 'fast' } }).success).toBe(false);
    expect(thresholdsSchema.safeParse({ '*': { speed: '>1' } }).success).toBe(false);
    expect(thresholdsSchema.safeParse({ 'a/b/c': { rps: '>1' } }).success).toBe(false);
    expect(thresholdsSchema.safeParse({ '*/node': { rps: '> 1.5', p99: ['<50', '!=0'] } }).success).toBe(true);
  });
});
