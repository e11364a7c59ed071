import type { FailedBreakdown } from '../result.js';

/** ab's failure buckets, plus timeouts counted on their own (a timeout is also an exception). */
export interface FailureCounts extends FailedBreakdown {
  timeouts: number;
}

export function emptyFailures(): FailureCounts {
  return { connect: 0, receive: 0, length: 0, exceptions: 0, timeouts: 0 };
}

const CONNECT_CODES = new Set(['ECONNREFUSED', 'EADDRNOTAVAIL', 'EHOSTUNREACH', 'ENETUNREACH', 'EMFILE', 'ENFILE', 'ETIMEDOUT']);
const RECEIVE_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);
// autocannon reports its own request timeout as a plain Error with this message.
const TIMEOUT_MESSAGE = 'request timed out';

export type FailureKind = 'connect' | 'receive' | 'exceptions' | 'timeout';

/** Sorts a socket-level error into ab's buckets: connect, receive, or exceptions (everything else). */
export function classifyError(error: unknown): FailureKind {
  const err = error as NodeJS.ErrnoException | undefined;
  if (err?.message === TIMEOUT_MESSAGE) return 'timeout';
  if (err?.code && CONNECT_CODES.has(err.code)) return 'connect';
  if (err?.code && RECEIVE_CODES.has(err.code)) return 'receive';
  return 'exceptions';
}

/** Counts one error in its bucket and returns the bucket (a timeout's is 'timeouts', also counted as an exception). */
export function countError(counts: FailureCounts, error: unknown): keyof FailureCounts {
  const kind = classifyError(error);
  if (kind === 'timeout') {
    // a timeout is a failed request (ab would call it an exception) and is also reported on its own
    counts.timeouts++;
    counts.exceptions++;
    return 'timeouts';
  }
  counts[kind]++;
  return kind;
}

/** ab's "Failed requests": the sum of its four buckets. */
export function totalFailed(counts: FailedBreakdown): number {
  return counts.connect + counts.receive + counts.length + counts.exceptions;
}
