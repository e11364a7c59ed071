import { describe, expect, it } from 'vitest';
import { runExternal } from './external-process.js';

describe('runExternal', () => {
  it('stops a program whose signal was aborted before it started: no abort event comes then', async () => {
    // a wrk run in the engines' conformance tests, stopped after 0.7 s, hung past its test's 15 s when the stop came
    // while the engine still prepared its run (a loaded machine): the program ran on, its duration a day
    const run = await runExternal('sleep', ['60'], { name: 'sleep', signal: AbortSignal.abort() });
    expect(run.exit.signal).toBe('SIGINT');
  }, 10_000);
});
