import type { BodyExpectation } from '../scenario.js';

/** The bytes of one answer's body a text or JSON check reads at most, unless --max-checked-body says otherwise. */
export const DEFAULT_MAX_CHECKED_BODY = 4 * 1024 * 1024;

/**
 * What a load loop keeps of a body to check it: an exact body's length (a longer one differs whatever it holds),
 * nothing when any body will do, else `limit` bytes.
 */
export const bodyKeepLimit = (expect: BodyExpectation, limit = DEFAULT_MAX_CHECKED_BODY): number =>
  expect.kind === 'exact' ? expect.length : expect.kind === 'any' ? 0 : limit;

/** Why a body over the limit failed its check, without reading it. */
export const overLimitProblem = (total: number, limit: number): string =>
  `body of ${total} bytes, over the ${limit} bytes a body check reads (--max-checked-body)`;

/**
 * One answer's body as its slices arrive, kept while it stays within `limit` bytes; past it, what was kept is let go
 * and the rest only counted, so a server's endless body costs no memory.
 */
export class BoundedBody {
  private parts: Buffer[] = [];
  /** Bytes of the body so far, kept or not. */
  total = 0;

  constructor(readonly limit: number) {}

  /** Takes a slice; `copy` when the caller's buffer is reused after this call (a read buffer). */
  push(slice: Buffer, copy = false): void {
    this.total += slice.length;
    if (this.total > this.limit) {
      if (this.parts.length > 0) this.parts = [];
      return;
    }
    if (slice.length > 0) this.parts.push(copy ? Buffer.from(slice) : slice);
  }

  get over(): boolean {
    return this.total > this.limit;
  }

  /** The body kept (empty when it went over the limit). */
  bytes(): Buffer {
    return this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
  }

  reset(): void {
    this.parts = [];
    this.total = 0;
  }
}
