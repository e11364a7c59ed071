import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { builtinEngines, builtinScenarios, serviceDefinitions } from '@bench/runner';
import { builtinReporters } from '@bench/reporters';
import { builtinTargets } from '@bench/targets';
import { testTempDir } from '../support/temp-dir.js';
import { runCli } from '../support/cli.js';
import { leftoverServers, serverProcesses } from '../support/processes.js';

const tmp = testTempDir('cli-run');
// a few hundred requests, no warm-up: what these tests read is the output, not the load
const quick = ['-c', '4', '-n', '200', '--warmup', '0'];

describe('bench run, end to end', () => {
  it('prints a markdown table with a row per target and leaves nothing running', async () => {
    const before = serverProcesses();
    const run = await runCli(['run', 'hello', ...quick, '-t', 'node,node-cluster', '--workers', '2']);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    const rows = run.stdout.split('\n').filter((line) => line.startsWith('|'));
    expect(rows[0]).toMatch(/\| *target *\|/);
    expect(rows.some((row) => /^\| *node *\| *4 *\|/.test(row))).toBe(true);
    expect(rows.some((row) => /^\| *node-cluster *\| *4 *\|/.test(row))).toBe(true);
    expect(await leftoverServers(before)).toEqual([]);
  });

  it('writes the JSON contract with --reporter json --out', async () => {
    const out = path.join(tmp, 'r.json');
    const run = await runCli(['run', 'hello', ...quick, '-t', 'node', '--reporter', 'json', '--out', out]);
    expect(run.code).toBe(0);
    const doc = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(doc.complete).toBe(true);
    expect(doc.tool.name).toBe('bench');
    expect(doc.results).toHaveLength(1);
    const [result] = doc.results;
    expect(result).toMatchObject({
      scenario: 'hello',
      target: 'node',
      concurrency: 4,
      status: 'ok',
      keepAlive: true,
      failed: 0,
      non2xx: 0,
    });
    expect(result?.requests).toBeGreaterThan(0);
    expect(result?.bytes.body).toBe((result?.requests ?? 0) * 11);
    for (const key of ['mean', 'stdev', 'min', 'p50', 'p66', 'p75', 'p80', 'p90', 'p95', 'p98', 'p99', 'p999', 'max']) {
      expect(result?.latency).toHaveProperty(key);
    }
    expect(existsSync(`${out}.tmp-${process.pid}`)).toBe(false);
  });

  it('prints ab-style blocks with --reporter ab, by request count and without keep-alive', async () => {
    const run = await runCli(['run', 'hello', '-c', '4', '-n', '200', '--warmup', '0', '--no-keepalive', '-t', 'node', '--reporter', 'ab']);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    const labels = [
      'Server Software:',
      'Server Hostname:        127.0.0.1',
      'Server Port:',
      'Document Path:          /',
      'Document Length:        11 bytes',
      'Concurrency Level:      4',
      'Time taken for tests:',
      'Complete requests:      200',
      'Failed requests:        0',
      'Total transferred:',
      'HTML transferred:       2200 bytes',
      'Requests per second:',
      'Time per request:',
      'Transfer rate:',
      'Connection Times (ms)',
      'Percentage of the requests served within a certain time (ms)',
    ];
    for (const label of labels) expect(lines.some((line) => line.startsWith(label))).toBe(true);
    expect(lines.some((line) => line.startsWith('Keep-Alive requests:'))).toBe(false);
    expect(lines.some((line) => /^ 100% +\d+ \(longest request\)$/.test(line))).toBe(true);
  });

  it('sends each reporter to its own place: json to a file, markdown to stdout', async () => {
    const out = path.join(tmp, 'both.json');
    const run = await runCli(['run', 'hello', ...quick, '-t', 'node', '--reporter', 'json', '--out', out, '--reporter', 'markdown']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\| *node *\|/);
    expect(JSON.parse(readFileSync(out, 'utf8')).results).toHaveLength(1);
  });
});

describe('bench run --repeat', () => {
  it('measures each cell n times and keeps every run in the JSON', async () => {
    const out = path.join(tmp, 'repeat.json');
    const run = await runCli([
      'run',
      'hello',
      '-c',
      '2',
      '-n',
      '100',
      '--warmup',
      '0',
      '--repeat',
      '2',
      '-t',
      'node',
      '--reporter',
      'json',
      '--out',
      out,
      '--reporter',
      'markdown',
    ]);
    expect(run.code).toBe(0);
    const doc = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(doc.results.map((r) => r.repeat)).toEqual([1, 2]);
    expect(run.stdout).toMatch(/\| node \| 2 \(2 runs\) \| [\d,.]+ \[[\d,]+-[\d,]+\] \|/);
  });
});

describe('bench doctor', () => {
  it('finds every target, engine and service installed by the setup script, with versions', async () => {
    const run = await runCli(['doctor']);
    expect(run.code).toBe(0);
    const rows: [string, string][] = [
      ...builtinTargets.map((t): [string, string] => ['target', t.name]),
      ...builtinEngines.map((e): [string, string] => ['engine', e.name]),
      ...Object.values(serviceDefinitions).map((s): [string, string] => ['service', s.title]),
    ];
    for (const [kind, name] of rows) {
      expect(run.stdout).toMatch(new RegExp(`^${kind} +${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +yes `, 'm'));
    }
    expect(run.stdout).toMatch(/Everything bench can run is installed/);
  });
});

describe('bench list', () => {
  it('is linked as the `bench` command by npm ci (what `npx bench` runs)', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { repoRoot } = await import('../support/cli.js');
    const { stdout } = await promisify(execFile)(path.join(repoRoot, 'node_modules', '.bin', 'bench'), ['--version']);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('lists every scenario, target, engine and reporter of the registries, with availability', async () => {
    const run = await runCli(['list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^hello +GET \/ /m);
    for (const scenario of builtinScenarios())
      expect(run.stdout).toMatch(new RegExp(`^${scenario.name} +${scenario.request.method} `, 'm'));
    for (const target of builtinTargets) expect(run.stdout).toMatch(new RegExp(`^${target.name} +${target.language} +yes`, 'm'));
    for (const engine of builtinEngines) expect(run.stdout).toMatch(new RegExp(`^${engine.name} +yes \\(`, 'm'));
    for (const reporter of Object.keys(builtinReporters)) expect(run.stdout).toMatch(new RegExp(`^${reporter} +built-in$`, 'm'));
  });
});
