import { describe, expect, it } from 'vitest';
import { isBenchError } from '@bench/core';
import { resolveRunOptions, validateRunOptions } from './resolve.js';
import type { RunOptionInput, RunOptions } from './declarations.js';

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

describe('ranges', () => {
  it('takes a value at either end of its range and refuses one past it, naming the flag and the range', () => {
    expect(resolveRunOptions({ scenarios: ['hello'] }, { concurrency: [1, 64_511], pipelining: 1024, timeoutSeconds: 3600 })).toMatchObject(
      {
        concurrency: [1, 64_511],
        pipelining: 1024,
      },
    );
    const cases: Array<[RunOptionInput, string]> = [
      [{ concurrency: [10, 64_512] }, '--concurrency "[10,64512]" is not valid: expected from 1 to 64511'],
      [{ pipelining: 1025 }, '--pipelining "1025" is not valid: expected from 1 to 1024'],
      [{ timeoutSeconds: 1e10 }, '--timeout "10000000000" is not valid: expected from 0.001 to 3600'],
      [{ dashboardPort: 65536 }, '--dashboard-port "65536" is not valid: expected from 0 to 65535'],
    ];
    for (const [input, words] of cases) {
      expect(() => resolveRunOptions({ scenarios: ['hello'] }, input)).toThrow(words);
      expect(codeOf(() => resolveRunOptions({ scenarios: ['hello'] }, input))).toBe('BENCH_ERR_BAD_NUMBER:2');
    }
  });
});
