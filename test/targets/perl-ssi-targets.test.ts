import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { builtinScenarios } from '@bench/runner';
import { builtinTargets } from '@bench/targets';
import { article000Stacks, describeToday } from '@bench/suites';
import { repoRoot, runCli } from '../support/cli.js';
import { watchDescendants } from '../support/descendants.js';
import { benchTempDirs, newTempDirs } from '../support/leaks.js';
import { leftoverServers, newServerProcesses, serverProcesses } from '../support/processes.js';
import { testTempDir } from '../support/temp-dir.js';

// Article 000's SSI, Embperl and ASP PerlScript rows today: each serves its scenarios byte for byte
// as every other stack, runs load, stops with nothing left, and says why it cannot serve the rest.
// What each serves, and why it cannot serve the rest, as its supports() says: one reason for every scenario it refuses
const allScenarios = builtinScenarios();
const targets = builtinTargets
  .filter((t) => ['apache-ssi', 'perl-embperl', 'perl-asp'].includes(t.name))
  .map((target) => {
    const refusals = allScenarios.map((scenario) => target.supports(scenario)).filter((support) => !support.ok);
    return {
      name: target.name,
      serves: allScenarios.filter((scenario) => target.supports(scenario).ok).map((scenario) => scenario.name),
      reason: refusals[0] && !refusals[0].ok ? refusals[0].reason : '',
    };
  });
const names = targets.map((t) => t.name);
const scenarios = builtinScenarios().map((s) => s.name);
const dir = testTempDir('perl-ssi');
// only this file's stacks: other runs on the machine may make private dirs of their own
const ownDirs = (found: readonly string[]) => found.filter((d) => names.some((name) => d.startsWith(`bench-${name}-`)));
// `bench list`, run once for the tests that read it (each run probes every target and engine on the machine)
let listed: ReturnType<typeof runCli> | undefined;
const list = () => (listed ??= runCli(['list']));

describe('apache-ssi, perl-embperl, perl-asp', () => {
  it('are built in', () => {
    expect(builtinTargets.map((t) => t.name)).toEqual(expect.arrayContaining(names));
  });

  // bench verify of each on every scenario, its row what supports() says and each refusal's reason printed, is in
  // verify-matrix.test.ts

  it('run hello for a few hundred requests each without a failure, and stop with nothing left', async () => {
    const out = path.join(dir, 'hello.json');
    let watch: ReturnType<typeof watchDescendants> | undefined;
    const run = await runCli(
      ['run', 'hello', '-t', names.join(','), '-c', '4', '-n', '300', '-w', '0', '--reporter', 'json', '--out', out],
      {
        timeoutMs: 120_000,
        onSpawn: (child) => (watch = watchDescendants(child.pid ?? 0)),
      },
    );
    watch?.stop();
    expect(run.code, run.stderr).toBe(0);
    const doc = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(doc.results.map((r) => `${r.target}/${r.status}/${r.requests}/${r.failed}/${r.non2xx}`)).toEqual(
      names.map((n) => `${n}/ok/300/0/0`),
    );
    for (const result of doc.results) expect(result.bytes.body).toBe(300 * 'Hello World'.length);
    const settingsOf = (name: string) => doc.results.find((r) => r.target === name)?.settings ?? {};
    expect(names.map((name) => settingsOf(name).sessions)).toEqual(names.map((name) => (name === 'perl-asp' ? false : undefined)));
    // the template engine's own version is recorded with the Perl ones
    expect(settingsOf('perl-embperl').embperl).toMatch(/^\d+\.\d+/);
    expect(settingsOf('perl-asp').asp).toMatch(/^\d+\.\d+/);
    expect(watch?.seen()).toContain('apache2');
    expect(await watch?.survivors()).toEqual([]);
  });

  it("has Embperl pages that print their values raw: Embperl's default HTML-escapes every [+ +]", () => {
    const pages = scenarios
      .map((s) => path.join(repoRoot, 'packages', 'scenarios', s, 'index.epl'))
      .filter((p) => existsSync(p) && readFileSync(p, 'utf8').includes('[+'));
    expect(pages.length).toBeGreaterThanOrEqual(4);
    for (const page of pages) expect([page, readFileSync(page, 'utf8')]).toEqual([page, expect.stringContaining('$escmode = 0')]);
  });

  it.each(names)('%s stops its Apache with the stack', async (name) => {
    const target = builtinTargets.find((t) => t.name === name)!;
    const hello = builtinScenarios().find((s) => s.name === 'hello')!;
    const before = serverProcesses();
    const dirsBefore = benchTempDirs();
    const running = await target.start(hello, { services: {} });
    try {
      // Apache is seen as a server while it runs, so the checks below could fail
      expect(newServerProcesses(before).map((p) => p.cmdline)).toContainEqual(
        expect.stringMatching(new RegExp(`apache2 -f ${os.tmpdir()}/bench-`)),
      );
      expect(ownDirs(benchTempDirs())).not.toEqual(ownDirs(dirsBefore));
    } finally {
      await running.stop();
    }
    expect(await leftoverServers(before)).toEqual([]);
    expect(ownDirs(await newTempDirs(dirsBefore))).toEqual([]);
  });

  it.each(targets.map((t) => [t.name, t.reason] as const))(
    '%s says why it cannot serve loop or include, in list and run',
    async (name, reason) => {
      const cannot = name === 'apache-ssi' ? 'loop' : 'include';
      expect((await list()).stdout).toContain(`  ${name} / ${cannot}: ${reason}`);
      const run = await runCli(['run', cannot, '-t', name, '-n', '10', '-c', '1']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(reason);
    },
  );
});

describe("perl-asp with sessions (article 000's SDBM_File and DB_File rows)", () => {
  it('keeps $Session in the database BENCH_ASP_SESSIONS names, in its private dir, and records it', async () => {
    const target = builtinTargets.find((t) => t.name === 'perl-asp')!;
    const hello = builtinScenarios().find((s) => s.name === 'hello')!;
    for (const stateDb of ['SDBM_File', 'DB_File']) {
      const dirsBefore = benchTempDirs();
      process.env.BENCH_ASP_SESSIONS = stateDb;
      const running = await target.start(hello, { services: {} }).finally(() => delete process.env.BENCH_ASP_SESSIONS);
      try {
        const answer = await fetch(running.url);
        expect(await answer.text()).toBe('Hello World');
        expect(answer.headers.get('set-cookie')).toMatch(/^session-id=[0-9a-f]{32}; path=\//);
        expect(running.settings.sessions).toBe(stateDb);
        // the state lives in the stack's private dir, nowhere else
        const [stackDir] = ownDirs(benchTempDirs()).filter((d) => !dirsBefore.includes(d));
        expect(readdirSync(path.join(os.tmpdir(), stackDir ?? 'missing', 'asp-state'))).toContain('server');
      } finally {
        await running.stop();
      }
    }
  });

  it('runs hello with sessions, and says so when the value is not one it knows', async () => {
    const out = path.join(dir, 'sessions.json');
    const run = await runCli(['run', 'hello', '-t', 'perl-asp', '-c', '4', '-n', '200', '-w', '0', '--reporter', 'json', '--out', out], {
      env: { BENCH_ASP_SESSIONS: '1' },
    });
    expect(run.code, run.stderr).toBe(0);
    const [result] = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).results;
    expect(result).toMatchObject({
      target: 'perl-asp',
      status: 'ok',
      requests: 200,
      failed: 0,
      non2xx: 0,
      settings: { sessions: 'SDBM_File' },
    });
    const bad = await runCli(['run', 'hello', '-t', 'perl-asp', '-n', '10', '-c', '1'], { env: { BENCH_ASP_SESSIONS: 'GDBM' } });
    expect(bad.stderr).toContain('BENCH_ASP_SESSIONS="GDBM" is not valid: expected 0, 1, SDBM_File or DB_File');
    expect(bad.code).toBe(2);
  });
});

describe('bench list --all', () => {
  // every row of article 000's tables and hit parades, as the suite keeps them
  const published = JSON.parse(readFileSync(path.join(repoRoot, 'packages', 'suites', 'computerra-2002', 'published.json'), 'utf8')) as {
    tables: { rows: { label: string }[] }[];
  };
  const labels = [...new Set(published.tables.flatMap((t) => t.rows.map((r) => r.label)))];

  it('has every row of article 000 in exactly one stack, and each served stack is a built-in target', () => {
    expect(labels.length).toBeGreaterThan(40);
    for (const label of labels) expect([label, article000Stacks.filter((s) => s.rows.includes(label)).length]).toEqual([label, 1]);
    expect(article000Stacks.flatMap((s) => s.rows).filter((row) => !labels.includes(row))).toEqual([]);
    const builtin = builtinTargets.map((t) => t.name);
    for (const stack of article000Stacks) if (stack.status === 'served') expect(builtin).toContain(stack.target);
  });

  it('says why each stack that cannot come back cannot: Windows, no free release, retired, unpublished pages', () => {
    const outOfReach = (name: string) => article000Stacks.find((s) => s.stack.startsWith(name) && s.status === 'out of reach');
    for (const name of [
      'ASP/IIS',
      'Resin/IIS',
      'ASP VBScript on Apache (OpenASP)',
      'Orion',
      'ServletExec',
      'JRun',
      'mod_jserv',
      'Jolt',
      'RXML',
      'XML/XSLT pages',
      'SSI Include through Apache::SSI',
    ]) {
      expect(outOfReach(name), name).toBeDefined();
    }
  });

  it('prints every stack with its target, or its status and reason; plain bench list does not', async () => {
    const all = await runCli(['list', '--all']);
    expect(all.code).toBe(0);
    const section = all.stdout.slice(all.stdout.indexOf("Article 000's stacks"));
    expect(section).not.toBe(all.stdout);
    const lines = section.split('\n');
    for (const stack of article000Stacks) {
      expect(
        lines
          .find((line) => line.startsWith(`${stack.stack} `))
          ?.trimEnd()
          .endsWith(describeToday(stack)),
        stack.stack,
      ).toBe(true);
    }
    expect(section).toMatch(/^ASP\/IIS.* out of reach: IIS runs on Windows only/m);
    expect((await list()).stdout).not.toContain("Article 000's stacks");
  });
});
