import { describe, expect, it } from 'vitest';
import type { LoadMeasurement } from '../engine.js';
import { emptyFailures } from './failures.js';
import { fixedAnswer, impossibleCounts } from './impossible-counts.js';

const measured = (requests: number, total: number, more: Partial<LoadMeasurement> = {}): LoadMeasurement =>
  ({
    durationSeconds: 1,
    requests,
    failures: emptyFailures(),
    non2xx: 0,
    statusCodes: { '200': requests },
    bytes: { total, body: requests * 11 },
    errorSamples: [],
    ...more,
  }) as LoadMeasurement;

// a hello answer: an 11-byte body after a 100-byte head
const hello = { bodyBytes: 11, answerBytes: 111 };

describe("an engine's counts held against what the server can have sent", () => {
  it('pass as they are for answers each read whole, those cut at the end included', () => {
    expect(impossibleCounts(measured(1000, 111_000), 'autocannon', hello, 2)).toBeUndefined();
    expect(impossibleCounts(measured(1000, 111_000 + 2 * 111), 'wrk', hello, 2)).toBeUndefined();
  });

  it('fail answers counted that the bytes read could not hold, and bytes read that no answer counted', () => {
    // each answer is 30 bytes at the least (its 11-byte body and a 19-byte head)
    expect(impossibleCounts(measured(1000, 29_999), 'ab', hello, 2)).toMatch(
      /^ab counted 1000 answers of 11 body bytes but read 29999 bytes, fewer than 30000/,
    );
    expect(impossibleCounts(measured(1000, 30_000), 'ab', hello, 2)).toBeUndefined();
    // twice the answers' bytes: a second answer to each request, read and not counted
    expect(impossibleCounts(measured(10_000, 2_220_000), 'h2load', hello, 2)).toMatch(
      /^h2load read 2220000 bytes for 10000 answers of 111 bytes each/,
    );
  });

  it('hold bytes to no answer where answers differ: other statuses, failed bodies, a workload', () => {
    expect(impossibleCounts(measured(1000, 1, { non2xx: 1 }), 'ab', hello, 2)).toBeUndefined();
    expect(impossibleCounts(measured(1000, 1, { failures: { ...emptyFailures(), length: 3 } }), 'ab', hello, 2)).toBeUndefined();
    expect(impossibleCounts(measured(1000, 1), 'ab', undefined, 2)).toBeUndefined();
  });

  it("take a scenario's answer as fixed only for one exact body over plain HTTP/1.1, framed by its length", () => {
    const scenario = {
      request: { method: 'GET', path: '/', headers: {} },
      expect: { status: 200, body: { kind: 'exact', length: 11, bytes: () => Buffer.from('Hello World') } },
    } as const;
    const answer = { status: 200, headers: { 'content-length': '11' }, body: Buffer.from('Hello World'), headerBytes: 100 };
    expect(fixedAnswer(scenario as never, answer, 'http1')).toEqual(hello);
    expect(fixedAnswer(scenario as never, answer, 'h2c')).toBeUndefined();
    expect(fixedAnswer(scenario as never, answer, 'https')).toBeUndefined();
    expect(fixedAnswer(scenario as never, { ...answer, headers: { 'transfer-encoding': 'chunked' } }, 'http1')).toBeUndefined();
    expect(fixedAnswer({ ...scenario, request: { ...scenario.request, method: 'HEAD' } } as never, answer, 'http1')).toBeUndefined();
  });
});
