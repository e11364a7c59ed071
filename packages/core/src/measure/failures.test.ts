import { describe, expect, it } from 'vitest';
import { classifyError, countError, emptyFailures, totalFailed } from './failures.js';

const errno = (code: string) => Object.assign(new Error(code), { code });

describe('failure arithmetic (ab buckets)', () => {
  it('sorts socket errors into connect, receive and exceptions', () => {
    expect(classifyError(errno('ECONNREFUSED'))).toBe('connect');
    expect(classifyError(errno('EADDRNOTAVAIL'))).toBe('connect');
    expect(classifyError(errno('ECONNRESET'))).toBe('receive');
    expect(classifyError(errno('EPIPE'))).toBe('receive');
    expect(classifyError(new Error('something odd'))).toBe('exceptions');
    expect(classifyError(new Error('request timed out'))).toBe('timeout');
  });

  it('counts a timeout as a failure (exceptions) and on its own', () => {
    const counts = emptyFailures();
    countError(counts, new Error('request timed out'));
    countError(counts, errno('ECONNREFUSED'));
    countError(counts, errno('ECONNRESET'));
    counts.length += 2;
    expect(counts).toEqual({ connect: 1, receive: 1, length: 2, exceptions: 1, timeouts: 1 });
    expect(totalFailed(counts)).toBe(5);
  });
});
