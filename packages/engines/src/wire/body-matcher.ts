import type { BodyExpectation } from '@bench/core';
import { BoundedBody, bodyTextCheck, DEFAULT_MAX_CHECKED_BODY, overLimitProblem } from '@bench/core/load-thread';

/**
 * Checks one answer's body as its bytes arrive. Exact bytes are compared slice by slice against the expected ones,
 * where they lie in the read buffer (nothing copied); a pattern or a JSON subset needs the whole text, so only those
 * bodies are kept until they end, up to `maxChecked` bytes: a longer one fails its check, the rest only counted.
 */
export interface BodyMatcher {
  begin(): void;
  take(chunk: Buffer, start: number, end: number): void;
  /** Whether the body that ended, `length` bytes in all, is the expected one. */
  finish(length: number): boolean;
  /** After finish() said no: what differed, for the run's error samples. */
  mismatch(): string;
}

const SAMPLE_BYTES = 60;
// Buffer.compare costs about 80 ns a call here whatever the length; a byte loop costs about 2 ns a byte
const COMPARED_IN_JS = 32;

/** Whether `chunk` holds, from `start` to `end`, the bytes `expected` holds from `at`. */
function sameBytes(chunk: Buffer, start: number, end: number, expected: Buffer, at: number): boolean {
  if (end - start > COMPARED_IN_JS) return chunk.compare(expected, at, at + end - start, start, end) === 0;
  for (let i = start, j = at; i < end; i++, j++) if (chunk[i] !== expected[j]) return false;
  return true;
}
const quoted = (bytes: Buffer) => JSON.stringify(bytes.toString('utf8'));

/**
 * What differed in an exact body, for the run's error samples: its length against the expected one, and the first
 * slice that differed (`sample`, cut to 60 bytes here), read at byte `at` of the body.
 */
export const exactMismatch = (total: number, expectedLength: number, differed?: { at: number; sample: Buffer }): string =>
  `wrong body (${total} bytes, ${expectedLength} expected)${differed ? `, from byte ${differed.at}: ${quoted(differed.sample.subarray(0, SAMPLE_BYTES))}` : ''}`;

// any body will do: one matcher, with no state, for every connection
const ANY_BODY: BodyMatcher = { begin() {}, take() {}, finish: () => true, mismatch: () => '' };

export function bodyMatcher(expect: BodyExpectation, maxChecked = DEFAULT_MAX_CHECKED_BODY): BodyMatcher {
  if (expect.kind === 'exact') {
    const expected = expect.bytes();
    let at = 0;
    let same = true;
    let differed: { at: number; sample: Buffer } | undefined;
    let total = 0;
    return {
      begin() {
        at = 0;
        same = true;
        differed = undefined;
      },
      take(chunk, start, end) {
        const length = end - start;
        if (same) {
          same = at + length <= expected.length && sameBytes(chunk, start, end, expected, at);
          // the first slice that differs is copied (a few bytes), only then
          if (!same) differed = { at, sample: Buffer.from(chunk.subarray(start, Math.min(end, start + SAMPLE_BYTES))) };
        }
        at += length;
      },
      finish: (length) => {
        total = length;
        return same && length === expected.length;
      },
      mismatch: () => exactMismatch(total, expected.length, differed),
    };
  }
  const check = bodyTextCheck(expect);
  if (!check) return ANY_BODY;
  const kept = new BoundedBody(maxChecked);
  let body: Buffer = Buffer.alloc(0);
  let total = 0;
  return {
    begin() {
      kept.reset();
    },
    take(chunk, start, end) {
      // the read buffer is reused by the next read: a body kept for a text check is copied out of it
      kept.push(chunk.subarray(start, end), true);
    },
    finish(length) {
      total = length;
      if (kept.over) {
        body = Buffer.alloc(0);
        return false;
      }
      body = kept.bytes();
      return check(body.toString('utf8'), length);
    },
    mismatch: () =>
      total > maxChecked
        ? overLimitProblem(total, maxChecked)
        : `wrong body (${body.length} bytes): ${quoted(body.subarray(0, SAMPLE_BYTES))}`,
  };
}
