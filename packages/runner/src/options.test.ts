import { describe, expect, it } from 'vitest';
import { isBenchError } from '@bench/core';
import { parseConcurrencyList, parsePositiveInteger, parsePositiveSeconds, validateRunOptions, type RunOptions } from './options.js';

const base: RunOptions = { scenarios: ['hello'], concurrency: [10], durationSeconds: 1, keepAlive: true, warmupSeconds: 0, timeoutSeconds: 10 };

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isBenchError(error) ? `${error.code}:${error.exitCode}` : 'not a BenchError';
  }
  return undefined;
}

describe('option parsing', () => {
  it('parses concurrency lists', () => {
    expect(parseConcurrencyList('-c', '3000,5000,7000')).toEqual([3000, 5000, 7000]);
    expect(parseConcurrencyList('-c', '10, 10')).toEqual([10]);
  });

  it.each(['0', '-1', 'abc', '1.5', '', '10,,20'])('rejects -c "%s" with exit code 2', (raw) => {
    expect(codeOf(() => parseConcurrencyList('-c', raw))).toBe('BENCH_ERR_BAD_NUMBER:2');
  });

  it('accepts durations with units', () => {
    expect(parsePositiveSeconds('-d', '30')).toBe(30);
    expect(parsePositiveSeconds('-d', '2m')).toBe(120);
    expect(parsePositiveSeconds('-d', '500ms')).toBe(0.5);
    expect(codeOf(() => parsePositiveSeconds('-d', '0'))).toBe('BENCH_ERR_BAD_NUMBER:2');
    expect(codeOf(() => parsePositiveInteger('-n', '-5'))).toBe('BENCH_ERR_BAD_NUMBER:2');
  });

  it('refuses -d with -n, and -n below -c', () => {
    expect(codeOf(() => validateRunOptions({ ...base, requests: 100 }))).toBe('BENCH_ERR_CONFLICTING_OPTIONS:2');
    expect(codeOf(() => validateRunOptions({ ...base, durationSeconds: undefined, requests: 5, concurrency: [10] }))).toBe(
      'BENCH_ERR_CONFLICTING_OPTIONS:2',
    );
    expect(validateRunOptions({ ...base, durationSeconds: undefined, requests: 10 }).requests).toBe(10);
  });
});
