import type { FailureCounts } from './failures.js';

/**
 * The note of a cell that counted no answer and no failure: its 0 rps reads as a throughput in a table, but says only
 * that every request was still in flight when the measured period ended.
 */
export function noAnswerNote(input: {
  readonly requests: number;
  readonly failures: FailureCounts;
  readonly durationSeconds: number;
}): string | undefined {
  const { connect, receive, length, exceptions, timeouts } = input.failures;
  if (input.requests > 0 || connect + receive + length + exceptions + timeouts > 0) return undefined;
  return `no answer and no failure in the measured ${input.durationSeconds} s: every request was still in flight when it ended (a server slower than the period, or one that never answers what it was sent); its 0 rps is not a throughput`;
}
