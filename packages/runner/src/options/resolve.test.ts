import { describe, expect, it } from 'vitest';
import { isBenchError } from '@bench/core';
import { resolveRunOptions, validateRunOptions } from './resolve.js';
import type { RunOptions } from './declarations.js';

const base = resolveRunOptions({ scenarios: ['hello'] }, { durationSeconds: 1, warmupSeconds: 0 });

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isBenchError(error) ? `${error.code}:${error.exitCode}` : 'not a BenchError';
  }
  return undefined;
}

describe('checking options together', () => {
  it('refuses -d with -n, and -n below -c', () => {
    expect(codeOf(() => validateRunOptions({ ...base, requests: 100 }))).toBe('BENCH_ERR_CONFLICTING_OPTIONS:2');
    const byCount: RunOptions = { ...base, durationSeconds: undefined, requests: 5 };
    expect(codeOf(() => validateRunOptions(byCount))).toBe('BENCH_ERR_CONFLICTING_OPTIONS:2');
    expect(validateRunOptions({ ...base, durationSeconds: undefined, requests: 10 }).requests).toBe(10);
  });
});

describe('resolving options from their sources', () => {
  it('takes the declared defaults: 10 connections for 10 seconds, keep-alive, autocannon', () => {
    const o = resolveRunOptions({ scenarios: ['hello'] });
    expect(o).toMatchObject({ concurrency: [10], durationSeconds: 10, keepAlive: true, warmupSeconds: 1, timeoutSeconds: 10, repeat: 1 });
    expect(o.requests).toBeUndefined();
  });

  it('lets flags override the config, and the config override the defaults', () => {
    const o = resolveRunOptions({ scenarios: ['hello'] }, { concurrency: [50] }, { concurrency: [5], repeat: 3, keepAlive: false });
    expect(o).toMatchObject({ concurrency: [50], repeat: 3, keepAlive: false });
  });

  it("drops the config's duration when the flags bound the run by -n, and the default duration with it", () => {
    const o = resolveRunOptions({ scenarios: ['hello'] }, { requests: 100 }, { durationSeconds: 30 });
    expect(o.requests).toBe(100);
    expect(o.durationSeconds).toBeUndefined();
  });

  it('refuses request options without --url, and scenario names with it', () => {
    expect(codeOf(() => resolveRunOptions({ scenarios: ['hello'] }, { method: 'POST' }))).toBe('BENCH_ERR_CONFLICTING_OPTIONS:2');
    expect(codeOf(() => resolveRunOptions({ scenarios: ['hello'] }, { url: 'http://127.0.0.1:1/' }))).toBe(
      'BENCH_ERR_CONFLICTING_OPTIONS:2',
    );
    expect(resolveRunOptions({ scenarios: [] }, { url: 'http://127.0.0.1:1/', method: 'POST' }).method).toBe('POST');
  });
});
