import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { maybe, optionInputSchema, rangedParse, withinRange } from './declaration.js';
import { isBenchError } from '../errors.js';
import { parseConcurrencyList, parseCpus, parseHeader, parsePositiveInteger, parsePositiveSeconds } from './parse.js';

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

  it('parses repeated headers and CPU pinning', () => {
    expect(parseHeader('Accept: application/json', parseHeader('X-Token: a:b'))).toEqual({ 'X-Token': 'a:b', Accept: 'application/json' });
    expect(codeOf(() => parseHeader('no colon'))).toBe('BENCH_ERR_USAGE:2');
    for (const value of ['a\r\nX-Injected: 1', 'a\nb', 'a\0b'])
      expect(codeOf(() => parseHeader(`X-Trace: ${value}`))).toBe('BENCH_ERR_USAGE:2');
    expect(() => parseHeader('X-Trace: a\r\nb')).toThrow('-H "X-Trace: ..." holds CR, LF or NUL in its value; give the value on one line');
    expect(parseCpus('server=0,client=1')).toEqual({ server: '0', client: '1' });
    expect(parseCpus('server=0-2,4,client=3')).toEqual({ server: '0-2,4', client: '3' });
    expect(codeOf(() => parseCpus('server=x'))).toBe('BENCH_ERR_USAGE:2');
  });
});

describe('ranged options', () => {
  const pipelining = maybe({
    flags: '-p, --pipelining <n>',
    description: 'requests in flight',
    schema: z.number().int().positive(),
    parse: (raw: string) => parsePositiveInteger('--pipelining', raw),
    range: { min: 1, max: 1024 },
  });

  it('parses a flag up to its range and refuses it one past, in one line', () => {
    const parse = rangedParse(pipelining)!;
    expect(parse('1024')).toBe(1024);
    expect(() => parse('1025')).toThrow('--pipelining "1025" is not valid: expected from 1 to 1024');
  });

  it('checks a config value against the same range', () => {
    const schema = optionInputSchema({ pipelining });
    expect(schema.safeParse({ pipelining: 1024 }).success).toBe(true);
    const refused = schema.safeParse({ pipelining: 1025 });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('must be from 1 to 1024');
  });

  it('checks each number of a list, and leaves words alone', () => {
    expect(withinRange([1, 5], { min: 1, max: 5 })).toBe(true);
    expect(withinRange([1, 6], { min: 1, max: 5 })).toBe(false);
    expect(withinRange('auto', { min: 1, max: 5 })).toBe(true);
  });
});
