import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

describe('bench noise', () => {
  it('runs one target twice per round and prints its spread, the threshold it supports and the rounds a change needs', async () => {
    const run = await runCli(['noise', 'hello', '-t', 'node', '-d', '0.5', '-w', '0', '--rounds', '3', '--seed', '3'], {
      timeoutMs: 90_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^\| hello \| 10 \| 3 \| [\d,]+ \| [\d.]+% \| [\d.]+% \| ±[\d.]+% \| \d+ \| \d+ \| \d+ \|$/m);
    expect(run.stdout).toMatch(/n = \(\(1\.96 \+ 0\.84\) x 1\.2533 x spread \/ change\)\^2/);
    // both names of the one target ran in each of the 3 rounds
    expect(run.stderr.match(/bench: hello node#1 c=10: /g)).toHaveLength(3);
    expect(run.stderr.match(/bench: hello node#2 c=10: /g)).toHaveLength(3);
  });

  it('refuses fewer than 3 rounds (exit 2)', async () => {
    const run = await runCli(['noise', 'hello', '-t', 'node', '--rounds', '2'], { timeoutMs: 20_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--rounds 2 is too few: a spread needs at least 3 rounds/);
  });
});
