import { describe, expect, it } from 'vitest';
import { emptyFailures } from '../load-thread.js';
import { noAnswerNote } from './no-answer.js';

describe('noAnswerNote', () => {
  it('names a cell with no answer and no failure', () => {
    expect(noAnswerNote({ requests: 0, failures: emptyFailures(), durationSeconds: 0.8 })).toMatch(
      /^no answer and no failure in the measured 0\.8 s: every request was still in flight/,
    );
  });

  it('says nothing of a cell that counted answers or failures', () => {
    expect(noAnswerNote({ requests: 1, failures: emptyFailures(), durationSeconds: 1 })).toBeUndefined();
    expect(noAnswerNote({ requests: 0, failures: { ...emptyFailures(), receive: 12_336 }, durationSeconds: 1 })).toBeUndefined();
    expect(noAnswerNote({ requests: 0, failures: { ...emptyFailures(), timeouts: 1 }, durationSeconds: 1 })).toBeUndefined();
  });
});
