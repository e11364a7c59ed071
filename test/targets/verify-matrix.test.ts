import { chmodSync, cpSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinScenarios } from '@bench/runner';
import { builtinTargets, javaTargets } from '@bench/targets';
import { repoRoot, runCli } from '../support/cli.js';
import { answersOnlyJvms } from '../support/jvm-env.js';
import { leftoverServers, serverProcesses } from '../support/processes.js';
import { testTempDir } from '../support/temp-dir.js';

// The scenarios (scripts, fixtures, compiled Node handlers) as they sit in a checkout inside a 0700
// directory, such as one under /root: servers whose workers run as another account must still serve them.
function privateCheckout(): string {
  const home = testTempDir('private-home');
  const checkout = path.join(home, 'checkout');
  mkdirSync(checkout, { mode: 0o700 });
  chmodSync(home, 0o700);
  cpSync(path.join(repoRoot, 'packages', 'scenarios'), path.join(checkout, 'scenarios'), {
    recursive: true,
    filter: (source) => !source.includes('node_modules'),
  });
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(checkout, 'node_modules'));
  return path.join(checkout, 'scenarios');
}

const privateScenarios = privateCheckout();

// `bench verify` over every target and every scenario: CI installs every stack, so every cell must pass.
describe('bench verify, whole matrix', () => {
  it('passes for every target on every scenario it supports, from a checkout in a 0700 directory, and leaves nothing running', async () => {
    const before = serverProcesses();
    // four targets at a time (each started once for every scenario it serves); TechEmpower's counted bursts of 32
    // requests, not TFB's 512 (a CGI stack answers 512 in seconds): at 32, TFB's margin cut to whole numbers on the
    // running counters moves a count by one at most, within its 5% (at 8, a count of one more warned)
    const run = await runCli(['verify', '--jobs', '4', '--tfb-burst', '32'], {
      timeoutMs: 600_000,
      env: { BENCH_SCENARIOS_DIR: privateScenarios, ...answersOnlyJvms },
    });
    const failures = run.stdout.split('\n').filter((line) => line.includes('FAIL') || line.includes('warn'));
    expect(failures).toEqual([]);
    expect(run.stdout).not.toMatch(/not available/);
    expect(run.code).toBe(0);
    for (const target of builtinTargets) {
      expect(run.stdout).toMatch(new RegExp(`^${target.name} +(ok|-)( |$)`, 'm'));
    }
    const scenarios = builtinScenarios().map((s) => s.name);
    const row = (name: string) => (run.stdout.split('\n').find((line) => line.startsWith(`${name} `)) ?? '').trim().split(/\s+/);
    // every built-in scenario has a servlet or a static file: the Java targets serve them all
    for (const name of javaTargets.map((t) => t.name)) expect(row(name)).toEqual([name, ...scenarios.map(() => 'ok')]);
    // TechEmpower's seven types, TFB's rules and the database's counters included, on every stack that can serve them
    const tfb = builtinScenarios().filter((s) => s.tfb);
    expect(tfb).toHaveLength(7);
    const servers = [
      'node',
      'node-pool',
      'node-cluster',
      'node-cluster-pool',
      'php-fpm',
      'php-mod',
      'php-fcgid',
      'php-cgi',
      'php-cli-server',
    ];
    const perl = ['perl-mod', 'perl-fcgi', 'perl-cgi', 'perl-embperl', 'perl-asp'];
    for (const name of [...servers, ...perl, ...javaTargets.map((t) => t.name)]) {
      const marks = row(name);
      expect([name, ...tfb.map((s) => marks[scenarios.indexOf(s.name) + 1])]).toEqual([name, ...tfb.map(() => 'ok')]);
    }
    // every target's row is what its supports() says, and each scenario it refuses is named with its reason
    for (const target of builtinTargets) {
      expect(row(target.name)).toEqual([target.name, ...builtinScenarios().map((s) => (target.supports(s).ok ? 'ok' : '-'))]);
      for (const scenario of builtinScenarios()) {
        const support = target.supports(scenario);
        if (!support.ok) expect(run.stdout).toContain(`${target.name} / ${scenario.name}: not supported: ${support.reason}`);
      }
    }
    expect(await leftoverServers(before)).toEqual([]);
    // each target starts once for every scenario it serves (startMany); with a cold class cache each Java target compiles its servlets first
  }, 420_000);

  it('exits non-zero and names the failure when a target answers wrongly', async () => {
    // a scenario that needs MariaDB, pointed at a port where no server listens
    const run = await runCli(['verify', 'db', '-t', 'node'], { env: { BENCH_MYSQL_URL: 'mysql://u:p@127.0.0.1:1/bench' } });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^node +FAIL/m);
    expect(run.stderr).toMatch(/1 of 1 target\/scenario pairs answered wrongly/);
  });
});
