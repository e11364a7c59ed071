import type { AnswerExpectation, BodyExpectation } from './scenario.js';
import type { HttpAnswer } from './http.js';

/** Whether `actual` contains `subset`: objects key by key, arrays element by element, the rest by equality. */
export function containsJson(actual: unknown, subset: unknown): boolean {
  if (subset === null || typeof subset !== 'object') return Object.is(actual, subset);
  if (Array.isArray(subset)) {
    return Array.isArray(actual) && subset.length <= actual.length && subset.every((item, i) => containsJson(actual[i], item));
  }
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
  return Object.entries(subset).every(([key, value]) => key in actual && containsJson((actual as Record<string, unknown>)[key], value));
}

function describeBytesDifference(actual: Buffer, expected: Buffer): string {
  if (actual.length !== expected.length) {
    const preview = actual.subarray(0, 120).toString('utf8').replace(/\s+/g, ' ');
    return `body is ${actual.length} bytes, expected ${expected.length} (starts: "${preview}")`;
  }
  let at = 0;
  while (at < actual.length && actual[at] === expected[at]) at++;
  return `body differs from byte ${at} on (same length ${actual.length})`;
}

/** What is wrong with a body, or undefined when it is as expected. */
export function bodyProblem(expect: BodyExpectation, body: Buffer): string | undefined {
  switch (expect.kind) {
    case 'exact': {
      const expected = expect.bytes();
      return body.equals(expected) ? undefined : describeBytesDifference(body, expected);
    }
    case 'matches':
      return new RegExp(expect.pattern).test(body.toString('utf8'))
        ? undefined
        : `body does not match /${expect.pattern}/ (starts: "${body.subarray(0, 120).toString('utf8')}")`;
    case 'json': {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        return `body is not JSON (starts: "${body.subarray(0, 120).toString('utf8')}")`;
      }
      return containsJson(parsed, expect.subset)
        ? undefined
        : `JSON body does not contain ${JSON.stringify(expect.subset)} (got ${body.subarray(0, 200).toString('utf8')})`;
    }
    case 'any':
      return undefined;
  }
}

/**
 * A fast check for the load loop, given a body as text and its length in bytes (as the engine
 * counted them): exact text (the length only for binary bodies, which do not survive a round trip
 * through text), a regular expression, or a JSON subset. Undefined when there is nothing to check.
 */
export function bodyTextCheck(expect: BodyExpectation): ((text: string, byteLength: number) => boolean) | undefined {
  switch (expect.kind) {
    case 'exact': {
      const bytes = expect.bytes();
      const text = bytes.toString('utf8');
      if (Buffer.byteLength(text) !== bytes.length || text.includes('\uFFFD')) return (_body, length) => length === bytes.length;
      return (body, length) => length === bytes.length && body === text;
    }
    case 'matches': {
      const pattern = new RegExp(expect.pattern);
      return (body) => pattern.test(body);
    }
    case 'json':
      return (body) => {
        try {
          return containsJson(JSON.parse(body), expect.subset);
        } catch {
          return false;
        }
      };
    case 'any':
      return undefined;
  }
}

/** A check for the load loop given a body's bytes; undefined when there is nothing to check. */
export function bodyBytesCheck(expect: BodyExpectation): ((body: Buffer) => boolean) | undefined {
  if (expect.kind === 'exact') {
    const bytes = expect.bytes();
    return (body) => body.equals(bytes);
  }
  const text = bodyTextCheck(expect);
  return text ? (body) => text(body.toString('utf8'), body.length) : undefined;
}

/** Whether a Content-Type header starts with the expected media type, without regard to case (AnswerExpectation.contentType). */
export const contentTypeMatches = (expected: string, header: string): boolean => header.toLowerCase().startsWith(expected.toLowerCase());

/**
 * Checks one answer: status, Content-Type, framing, Date, extra headers, body. `http2`: the answer came over HTTP/2,
 * whose frames end a body (no Content-Length or Transfer-Encoding needed).
 */
export function answerProblems(expect: AnswerExpectation, answer: HttpAnswer, http2 = false): string[] {
  const problems: string[] = [];
  if (expect.status !== undefined ? answer.status !== expect.status : answer.status < 200 || answer.status >= 300) {
    problems.push(`status ${answer.status}, expected ${expect.status ?? 'a 2xx'}`);
  }
  const contentType = String(answer.headers['content-type'] ?? '');
  if (expect.contentType !== undefined && !contentTypeMatches(expect.contentType, contentType)) {
    problems.push(`Content-Type "${contentType}" does not start with "${expect.contentType}"`);
  }
  if (!http2 && answer.headers['content-length'] === undefined && answer.headers['transfer-encoding'] === undefined) {
    problems.push('neither Content-Length nor Transfer-Encoding is set');
  }
  if (answer.headers.date === undefined) problems.push('no Date header');
  for (const [name, pattern] of Object.entries(expect.headers)) {
    const value = answer.headers[name.toLowerCase()];
    if (value === undefined) problems.push(`no ${name} header`);
    else if (!new RegExp(pattern, 'i').test(String(value))) problems.push(`${name} "${String(value)}" does not match /${pattern}/`);
  }
  const body = bodyProblem(expect.body, answer.body);
  if (body) problems.push(body);
  return problems;
}
