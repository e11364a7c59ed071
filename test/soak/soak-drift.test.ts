import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinScenarios, resolveRunOptions, runBench } from '@bench/runner';
import { onLoadOf, soakFixture } from '../support/soak-fixture.js';

const scenarios = builtinScenarios();

// Runs with nothing beside it, not even idle work (vitest.config.ts's quiet files): a steady server must not look
// drifted because other work took, or stopped taking, a share of the machine.
describe('throughput drift', () => {
  it('is flagged when the server slows by 1 ms of CPU a request after half the run, not when it stays steady', async () => {
    const pidFile = path.join(os.tmpdir(), `benchtest-slowing-${process.pid}.pid`);
    // 4 connections, 2 ms a request (throughput bound by the delay), then 1 ms of CPU more per request from second 5 on
    const options = resolveRunOptions(
      { scenarios: ['hello'] },
      { concurrency: [4], durationSeconds: 10, warmupSeconds: 0, timeoutSeconds: 5 },
    );
    const slowing = soakFixture('slowing', { DELAY_MS: '2', PID_FILE: pidFile });
    const steady = soakFixture('steady', { DELAY_MS: '2' });
    let slowed = false;
    const doc = await runBench(
      { ...options, targets: ['slowing', 'steady'] },
      {
        targets: [slowing, steady],
        scenarios,
        reporters: [],
        onEvent: onLoadOf('slowing', pidFile, (pid, elapsed) => {
          if (elapsed < 4.5 || slowed) return;
          slowed = true;
          process.kill(pid, 'SIGUSR2');
        }),
      },
    );
    rmSync(pidFile, { force: true });
    const cell = (name: string) => doc.results.find((r) => r.target === name)!;
    expect(slowed).toBe(true);
    const seen = JSON.stringify(doc.results.map((r) => [r.target, r.notes, r.series?.map((p) => p.rps)]));
    expect(cell('slowing').soak?.rps?.driftPercent, seen).toBeLessThan(-20);
    expect(
      cell('slowing').notes.some((n) => /^throughput drifted -\d+(\.\d)?% from the first 5 s to the last .*rank test p = /.test(n)),
      seen,
    ).toBe(true);
    expect(cell('steady').status).toBe('ok');
    expect(
      cell('steady').notes.filter((n) => n.includes('drifted')),
      seen,
    ).toEqual([]);
  }, 60_000);
});
