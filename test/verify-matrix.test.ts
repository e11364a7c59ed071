import { describe, expect, it } from 'vitest';
import { builtinTargets } from '@bench/targets';
import { runCli } from './support/cli.js';
import { leftoverServers, serverProcesses } from './support/processes.js';

// `bench verify` over every target and every scenario: CI installs every stack, so every cell must pass.
describe('bench verify, whole matrix', () => {
  it('passes for every target on every scenario it supports, and leaves nothing running', async () => {
    const before = serverProcesses();
    const run = await runCli(['verify'], { timeoutMs: 600_000 });
    const failures = run.stdout.split('\n').filter((line) => line.includes('FAIL'));
    expect(failures).toEqual([]);
    expect(run.stdout).not.toMatch(/not available/);
    expect(run.code).toBe(0);
    for (const target of builtinTargets) {
      expect(run.stdout).toMatch(new RegExp(`^${target.name} +(ok|-)( |$)`, 'm'));
    }
    expect(await leftoverServers(before)).toEqual([]);
  });

  it('exits non-zero and names the failure when a target answers wrongly', async () => {
    // a scenario that needs MariaDB, pointed at a port where no server listens
    const run = await runCli(['verify', 'db', '-t', 'node'], { env: { BENCH_MYSQL_URL: 'mysql://u:p@127.0.0.1:1/bench' } });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^node +FAIL/m);
    expect(run.stderr).toMatch(/1 of 1 target\/scenario pairs answered wrongly/);
  });
});
