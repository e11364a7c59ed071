import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinEngines, builtinScenarios } from '@bench/runner';
import { builtinTargets } from '@bench/targets';
import { repoRoot, runCli } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// A project adds a target, an engine and a reporter as module files named in its config (test/fixtures/plugins):
// each shows in `bench list`, in the help, and in the cells of a run, exactly like bench's own.
const fixtures = path.join(repoRoot, 'test', 'fixtures', 'plugins');

// a project folder with bench installed, as an app repo has it (its plugins import @bench/runner)
function project(): string {
  const dir = testTempDir('plugins');
  cpSync(fixtures, dir, { recursive: true });
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

it('every built-in target and engine names the processes it may start, for the leak checks', () => {
  for (const target of builtinTargets) expect(target.processNames?.length, target.name).toBeGreaterThan(0);
  // engines name the programs they launch (none for the in-process ones)
  for (const engine of builtinEngines) expect(engine.processNames, engine.name).toEqual(engine.clientThreads ? [] : [engine.name]);
});

describe('plugins from module files', () => {
  it('bench list shows the built-in registries and the config’s target, engine and reporter', async () => {
    const dir = project();
    const run = await runCli(['list'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    for (const name of [...builtinScenarios().map((s) => s.name)]) expect(run.stdout).toMatch(new RegExp(`^${name} +`, 'm'));
    for (const name of [...builtinTargets.map((t) => t.name), 'throwaway-target'])
      expect(run.stdout).toMatch(new RegExp(`^${name} +\\S+ +(yes|no)`, 'm'));
    for (const name of [...builtinEngines.map((e) => e.name), 'throwaway-engine'])
      expect(run.stdout).toMatch(new RegExp(`^${name} +(yes|no)`, 'm'));
    expect(run.stdout).toMatch(/^throwaway-target +test +yes +throwaway 0\.0\.1 +all but /m);
    expect(run.stdout).toMatch(/^throwaway-engine +yes \(0\.0\.1\)/m);
    expect(run.stdout).toMatch(/^\.\/throwaway-reporter\.mjs +config$/m);
  });

  it('the help names them beside the built-ins', async () => {
    const dir = project();
    const run = await runCli(['run', '--help'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const line = (kind: string) => run.stdout.split('\n').find((l) => l.startsWith(`  ${kind}: `)) ?? '';
    expect(line('targets').split(': ')[1]?.split(', ')).toEqual([...builtinTargets.map((t) => t.name), 'throwaway-target']);
    expect(line('engines').split(': ')[1]?.split(', ')).toEqual([...builtinEngines.map((e) => e.name), 'throwaway-engine']);
    expect(line('reporters')).toMatch(/, \.\/throwaway-reporter\.mjs$/);
    // without the config, the registries alone
    const bare = await runCli(['run', '--help'], { cwd: testTempDir('plugins-bare') });
    expect(bare.stdout).not.toMatch(/throwaway/);
    expect(bare.stdout).toContain(`engines: ${builtinEngines.map((e) => e.name).join(', ')}\n`);
  });

  it('bench verify keeps every result when a stack does not stop: its FAIL line, and the table for all', async () => {
    const run = await runCli(['verify', 'hello', '-t', 'throwaway-target,node', '--jobs', '2'], {
      cwd: project(),
      env: { THROWAWAY_STOP_FAILS: '1' },
    });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^throwaway-target +FAIL *$/m);
    expect(run.stdout).toMatch(/^node +ok *$/m);
    expect(run.stdout).toContain('throwaway-target / hello: FAIL: the stack did not stop: the throwaway stack did not let go of its port');
    expect(run.stderr).toMatch(/BENCH_ERR_VERIFY: 1 of 2 target\/scenario pairs/);
  });

  it('a run plans, verifies, drives and reports through them', async () => {
    const dir = project();
    const report = path.join(dir, 'report.txt');
    const run = await runCli(['run', '--engine', 'throwaway-engine', '-c', '1,2', '-d', '1', '--warmup', '0'], {
      cwd: dir,
      env: { BENCH_TEST_REPORT: report },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/2 cell\(s\): hello\/throwaway-target at c=1,2, engine throwaway-engine/);
    expect(readFileSync(report, 'utf8')).toBe('hello throwaway-target throwaway-engine ok\n'.repeat(2));
  });

  it('--engine takes a module path, and a module that cannot load is a coded error with its cause', async () => {
    const dir = project();
    const report = path.join(dir, 'report.txt');
    const byPath = await runCli(['run', '--engine', './throwaway-engine.mjs', '-c', '1', '-d', '1', '--warmup', '0'], {
      cwd: path.join(dir),
      env: { BENCH_TEST_REPORT: report },
    });
    expect(byPath.code, byPath.stderr).toBe(0);
    expect(readFileSync(report, 'utf8')).toBe('hello throwaway-target throwaway-engine ok\n');
    const broken = await runCli(['run', '--engine', './broken-engine.mjs'], { cwd: dir });
    expect(broken.code).toBe(2);
    expect(broken.stderr.trim()).toMatch(
      /^bench: BENCH_ERR_ENGINE_LOAD: failed to load engine "\.\/broken-engine\.mjs": this engine cannot load here$/,
    );
    const missing = await runCli(['run', '--engine', './nowhere.mjs'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toMatch(/failed to load engine "\.\/nowhere\.mjs": no file at .*nowhere\.mjs$/);
  });

  it('an engine of the project’s own declares an option: a flag of bench run, a key of the config’s defaults, refused with another engine', async () => {
    const dir = project();
    const requestsOf = (file: string) =>
      (JSON.parse(readFileSync(file, 'utf8')) as { results: Array<{ requests: number }> }).results.map((r) => r.requests);
    const help = await runCli(['run', '--help'], { cwd: dir });
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(' --sends <n> requests each connection sends in turn (default: 1) ');
    // given with no engine named, the option chooses its engine
    const json = path.join(dir, 'flag.json');
    const report = path.join(dir, 'report.txt');
    const flag = await runCli(['run', '-c', '2', '-d', '1', '--warmup', '0', '--sends', '3', '-r', 'json', '-o', json], {
      cwd: dir,
      env: { BENCH_TEST_REPORT: report },
    });
    expect(flag.code, flag.stderr).toBe(0);
    expect(flag.stderr).toMatch(/engine throwaway-engine/);
    expect(requestsOf(json)).toEqual([6]);
    // from the config's defaults, checked against the option's type
    const config = readFileSync(path.join(dir, 'bench.config.mjs'), 'utf8');
    writeFileSync(
      path.join(dir, 'bench.config.mjs'),
      config.replace("scenarios: ['hello'],", "scenarios: ['hello'],\n  defaults: { sends: 2 },"),
    );
    const configured = path.join(dir, 'config.json');
    const fromConfig = await runCli(['run', '-c', '2', '-d', '1', '--warmup', '0', '-r', 'json', '-o', configured], { cwd: dir });
    expect(fromConfig.code, fromConfig.stderr).toBe(0);
    expect(requestsOf(configured)).toEqual([4]);
    writeFileSync(
      path.join(dir, 'bench.config.mjs'),
      config.replace("scenarios: ['hello'],", "scenarios: ['hello'],\n  defaults: { sends: 0 },"),
    );
    const bad = await runCli(['run', '-d', '1'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toMatch(/^bench: BENCH_ERR_CONFIG: config bench\.config\.mjs: defaults\.sends/);
    // with another engine it means nothing: refused before anything starts
    writeFileSync(path.join(dir, 'bench.config.mjs'), config);
    const other = await runCli(['run', '--engine', 'autocannon', '--sends', '3', '-d', '1'], { cwd: dir });
    expect(other.code).toBe(2);
    expect(other.stderr.trim()).toBe(
      'bench: BENCH_ERR_ENGINE_UNSUPPORTED: engine "autocannon" cannot do this: only throwaway-engine sends n requests a connection: use --engine throwaway-engine with --sends',
    );
  });
});
