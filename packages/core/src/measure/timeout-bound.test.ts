import { describe, expect, it } from 'vitest';
import { explainTimeouts } from './timeout-bound.js';

describe('explainTimeouts', () => {
  const perlCgi = { concurrency: 3000, durationSeconds: 30, requests: 0, timeouts: 8034, timeoutSeconds: 10, maxRequestWorkers: 256 };

  it('says why a stack that worked answered nothing in time', () => {
    expect(explainTimeouts({ ...perlCgi, serverCpuPercent: 180 })).toBe(
      '8,034 of 8,034 requests timed out (--timeout 10 s) and none was answered in time, the server at 180% of a core: the stack was busy, not dead: every request waited longer than the timeout behind the other 2,999 connections; 256 workers serve at once (MaxRequestWorkers), the other connections wait in the listen backlog or retry their connect',
    );
  });

  it("gives the queue's wait from the rate it answered", () => {
    expect(explainTimeouts({ ...perlCgi, requests: 1890, timeouts: 5000 })).toMatch(
      /^5,000 of 6,890 requests timed out \(--timeout 10 s\): at the 63 rps it answered, 3,000 connections make each request wait about 47\.6 s/,
    );
  });

  it('says nothing when few requests timed out', () => {
    expect(explainTimeouts({ ...perlCgi, requests: 10_000, timeouts: 50 })).toBeUndefined();
    expect(explainTimeouts({ ...perlCgi, requests: 10_000, timeouts: 0 })).toBeUndefined();
  });
});
