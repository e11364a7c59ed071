import { describe, expect, it } from 'vitest';
import { builtinScenarios } from '@bench/runner';
import { runCli } from '../support/cli.js';
import { watchDescendants } from '../support/descendants.js';
import { answersOnlyJvms } from '../support/jvm-env.js';
import { leftoverServers, serverProcesses } from '../support/processes.js';

// TechEmpower's database types on PostgreSQL, as verify-matrix.test.ts checks them on MariaDB: the stacks' real
// drivers against bench's own PostgreSQL, counted by TFB's PostgreSQL rules (pg_stat_statements, no margin).
describe('bench verify --db postgres', () => {
  it("passes TechEmpower's database types on a stack of each kind, TFB's PostgreSQL counts included, and leaves nothing running", async () => {
    const before = serverProcesses();
    // a shared connection in each of several processes, a pool, FastCGI, a process per request (memcached's cache),
    // mod_perl, a template engine, a servlet container (its JDBC driver and pool from Maven Central)
    const stacks = ['node-cluster', 'node-pool', 'php-fpm', 'php-cgi', 'perl-mod', 'perl-asp', 'java-tomcat'];
    const types = builtinScenarios().filter((s) => s.tfb && s.services.includes('mysql'));
    expect(types.map((s) => s.tfb).sort()).toEqual(['cached-queries', 'db', 'fortunes', 'queries', 'updates']);
    let watch: ReturnType<typeof watchDescendants> | undefined;
    // TechEmpower's counted bursts of 32 requests, not TFB's 512 (verify-matrix.test.ts says why 32)
    const run = await runCli(
      ['verify', types.map((s) => s.name).join(','), '-t', stacks.join(','), '--db', 'postgres', '--jobs', '4', '--tfb-burst', '32'],
      { timeoutMs: 300_000, env: answersOnlyJvms, onSpawn: (child) => (watch = watchDescendants(child.pid ?? 0)) },
    );
    watch?.stop();
    expect(run.stdout.split('\n').filter((line) => line.includes('FAIL') || line.includes('warn'))).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    for (const name of stacks) expect(run.stdout).toMatch(new RegExp(`^${name} +ok +ok +ok +ok +ok *$`, 'm'));
    // PostgreSQL served them, and no MariaDB was started
    expect(watch?.seen()).toContain('postgres');
    expect(watch?.seen()).not.toContain('mariadbd');
    expect(await leftoverServers(before)).toEqual([]);
  }, 300_000);
});
