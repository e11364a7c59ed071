import { bodyTextCheck, type BodyExpectation } from '@bench/core';

/**
 * Checks one answer's body as its bytes arrive. Exact bytes are compared slice by slice against the expected ones,
 * where they lie in the read buffer (nothing copied); a pattern or a JSON subset needs the whole text, so only those
 * bodies are kept until they end.
 */
export interface BodyMatcher {
  begin(): void;
  take(chunk: Buffer, start: number, end: number): void;
  /** Whether the body that ended, `length` bytes in all, is the expected one. */
  finish(length: number): boolean;
}

export function bodyMatcher(expect: BodyExpectation): BodyMatcher {
  if (expect.kind === 'exact') {
    const expected = expect.bytes();
    let at = 0;
    let same = true;
    return {
      begin() {
        at = 0;
        same = true;
      },
      take(chunk, start, end) {
        const length = end - start;
        if (same) same = at + length <= expected.length && chunk.compare(expected, at, at + length, start, end) === 0;
        at += length;
      },
      finish: (length) => same && length === expected.length,
    };
  }
  const check = bodyTextCheck(expect);
  if (!check) return { begin() {}, take() {}, finish: () => true };
  let parts: Buffer[] = [];
  return {
    begin() {
      parts = [];
    },
    take(chunk, start, end) {
      // the read buffer is reused by the next read: a body kept for a text check is copied out of it
      parts.push(Buffer.from(chunk.subarray(start, end)));
    },
    finish(length) {
      const body = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
      return check(body.toString('utf8'), length);
    },
  };
}
