import { describe, expect, it } from 'vitest';
import { loadSuites } from '@bench/runner';
import { runCli } from '../support/cli.js';

// bench suite itself: the list of suites and what they need; each suite's run has a file of its own beside this one.
describe('bench suite', () => {
  it('list shows each suite, what it needs and whether this machine has it', async () => {
    const run = await runCli(['suite', 'list']);
    expect(run.code).toBe(0);
    for (const { definition } of loadSuites()) {
      // a suite of client timings (article 002) has no stacks to check here: bench doctor lists its clients
      const here = definition.kind === 'https-clients' ? 'see bench doctor' : 'yes';
      expect(run.stdout).toMatch(new RegExp(`^${definition.name} +${definition.article} .* ${here}$`, 'm'));
    }
  });

  it('-t names only targets the suite has', async () => {
    const run = await runCli(['suite', 'linuxfab-2000', '-t', 'node']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe('bench: BENCH_ERR_USAGE: suite linuxfab-2000 has no target node; its targets: php-mod');
  });
});
