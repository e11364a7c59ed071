import type { AnswerExpectation, BodyExpectation } from './scenario.js';
import type { ExpectConfig } from './workload/workload.js';

function bodyExpectation(expect: ExpectConfig): BodyExpectation {
  if (expect.body !== undefined) {
    const bytes = Buffer.from(expect.body);
    return { kind: 'exact', length: bytes.length, bytes: () => bytes };
  }
  if (expect.bodyMatches !== undefined) return { kind: 'matches', pattern: expect.bodyMatches };
  if (expect.json !== undefined) return { kind: 'json', subset: expect.json };
  return { kind: 'any' };
}

/** What every answer to a spec must be, from its `expect`. */
export function answerExpectation(expect: ExpectConfig): AnswerExpectation {
  return {
    ...(expect.status !== undefined ? { status: expect.status } : {}),
    ...(expect.contentType !== undefined ? { contentType: expect.contentType } : {}),
    headers: {},
    body: bodyExpectation(expect),
  };
}
