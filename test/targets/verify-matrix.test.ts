import { describe, expect, it } from 'vitest';
import { builtinTargets } from '@bench/targets';
import { runCli } from '../support/cli.js';
import { matrixHalves, verifyMatrix } from '../support/verify-matrix.js';

// `bench verify` over every target and every scenario, in two files (this and verify-matrix-second.test.ts): each
// target starts once for every scenario it serves (startMany); with a cold class cache each Java target compiles its
// servlets first.
describe('bench verify, whole matrix', () => {
  it('the two halves hold every built-in target once', () => {
    expect([...matrixHalves[0], ...matrixHalves[1]].map((t) => t.name).sort()).toEqual(builtinTargets.map((t) => t.name).sort());
  });

  it('passes for every target of the first half on every scenario it supports, from a checkout in a 0700 directory, and leaves nothing running', async () => {
    await verifyMatrix(matrixHalves[0]);
  }, 420_000);

  it('exits non-zero and names the failure when a target answers wrongly', async () => {
    // a scenario that needs MariaDB, pointed at a port where no server listens
    const run = await runCli(['verify', 'db', '-t', 'node'], { env: { BENCH_MYSQL_URL: 'mysql://u:p@127.0.0.1:1/bench' } });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^node +FAIL/m);
    expect(run.stderr).toMatch(/1 of 1 target\/scenario pairs answered wrongly/);
  });
});
