import { chmodSync, cpSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { TargetPlugin } from '@bench/core';
import { builtinScenarios } from '@bench/runner';
import { builtinTargets, javaTargets } from '@bench/targets';
import { repoRoot, runCli } from './cli.js';
import { answersOnlyJvms } from './jvm-env.js';
import { leftoverServers, serverProcesses } from './processes.js';
import { testTempDir } from './temp-dir.js';

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

/**
 * The built-in targets in two halves, every other one (the Java containers, the slowest to verify, fall in both):
 * verify-matrix.test.ts and verify-matrix-second.test.ts each verify one, so the matrix, the longest of the files that
 * run as idle work, runs as two files side by side.
 */
export const matrixHalves: readonly [readonly TargetPlugin[], readonly TargetPlugin[]] = [
  builtinTargets.filter((_, i) => i % 2 === 0),
  builtinTargets.filter((_, i) => i % 2 === 1),
];

/**
 * `bench verify` of these targets on every scenario, from a checkout inside a 0700 directory: CI installs every stack,
 * so every cell must pass, every row must be what the target's supports() says, and nothing may be left running.
 */
export async function verifyMatrix(targets: readonly TargetPlugin[]): Promise<void> {
  const chosen = (name: string) => targets.some((t) => t.name === name);
  const before = serverProcesses();
  // four targets at a time (each started once for every scenario it serves); TechEmpower's counted bursts of 32
  // requests, not TFB's 512 (a CGI stack answers 512 in seconds): at 32, TFB's margin cut to whole numbers on the
  // running counters moves a count by one at most, within its 5% (at 8, a count of one more warned)
  const run = await runCli(['verify', '-t', targets.map((t) => t.name).join(','), '--jobs', '4', '--tfb-burst', '32'], {
    timeoutMs: 600_000,
    env: { BENCH_SCENARIOS_DIR: privateCheckout(), ...answersOnlyJvms },
  });
  const failures = run.stdout.split('\n').filter((line) => line.includes('FAIL') || line.includes('warn'));
  expect(failures).toEqual([]);
  expect(run.stdout).not.toMatch(/not available/);
  expect(run.code).toBe(0);
  for (const target of targets) {
    expect(run.stdout).toMatch(new RegExp(`^${target.name} +(ok|-)( |$)`, 'm'));
  }
  const scenarios = builtinScenarios().map((s) => s.name);
  const row = (name: string) => (run.stdout.split('\n').find((line) => line.startsWith(`${name} `)) ?? '').trim().split(/\s+/);
  // every built-in scenario has a servlet or a static file: the Java targets serve them all
  for (const name of javaTargets.map((t) => t.name).filter(chosen)) expect(row(name)).toEqual([name, ...scenarios.map(() => 'ok')]);
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
  for (const name of [...servers, ...perl, ...javaTargets.map((t) => t.name)].filter(chosen)) {
    const marks = row(name);
    expect([name, ...tfb.map((s) => marks[scenarios.indexOf(s.name) + 1])]).toEqual([name, ...tfb.map(() => 'ok')]);
  }
  // every target's row is what its supports() says, and each scenario it refuses is named with its reason
  for (const target of targets) {
    expect(row(target.name)).toEqual([target.name, ...builtinScenarios().map((s) => (target.supports(s).ok ? 'ok' : '-'))]);
    for (const scenario of builtinScenarios()) {
      const support = target.supports(scenario);
      if (!support.ok) expect(run.stdout).toContain(`${target.name} / ${scenario.name}: not supported: ${support.reason}`);
    }
  }
  expect(await leftoverServers(before)).toEqual([]);
}
