import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDocumentSchema, SCHEMA_VERSION, type RunDocument } from '@bench/core';
import { runCli } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// The gate on results files written here (no load): a --fail-if that cannot be decided never passes silently.
const latency = { mean: 5, stdev: 1, min: 1, p50: 5, p66: 5, p75: 6, p80: 6, p90: 7, p95: 8, p98: 9, p99: 10, p999: 12, max: 15 };

function cell(target: string, repeat: number, rps: number) {
  return {
    scenario: 'hello',
    target,
    concurrency: 10,
    repeat,
    status: 'ok',
    durationSeconds: 1,
    requests: Math.round(rps),
    rps,
    latency,
    failed: 0,
    failedBreakdown: { connect: 0, receive: 0, length: 0, exceptions: 0 },
    non2xx: 0,
    timeouts: 0,
    bytes: { total: 0, body: 0 },
    keepAlive: true,
    bound: { kind: 'duration', value: 1 },
    warmupSeconds: 0,
    url: 'http://127.0.0.1:1/',
    server: { software: 'node', hostname: '127.0.0.1', port: 1 },
    document: { path: '/', length: 13 },
    statusCodes: { '200': Math.round(rps) },
    settings: {},
    notes: [],
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
  };
}

function resultsFile(dir: string, name: string, cells: Array<ReturnType<typeof cell>>): string {
  const doc: RunDocument = runDocumentSchema.parse({
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'bench', version: '0.1.0' },
    startedAt: '2026-01-01T00:00:00.000Z',
    complete: true,
    machine: {
      hostname: 'h',
      platform: 'linux',
      release: '6',
      arch: 'x64',
      cpus: 2,
      cpuModel: 'cpu',
      memoryBytes: 1,
      node: 'v22',
      sharedHost: true,
    },
    command: 'bench run',
    options: { seed: 7 },
    results: cells,
  });
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

describe('bench compare: a gate never passes undecided', () => {
  it('exits 3 with one line saying why and what to raise when single runs cannot decide, even after a 90% drop', async () => {
    const dir = testTempDir('gate');
    const base = resultsFile(dir, 'base.json', [cell('node', 1, 10_000)]);
    const head = resultsFile(dir, 'head.json', [cell('node', 1, 1_000)]);
    const run = await runCli(['compare', base, head, '--fail-if', 'rps<-5%'], { timeoutMs: 20_000 });
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/\| hello \| node \| 10 \| rps \| .* \| no verdict \|/);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^bench: BENCH_ERR_UNDECIDED: 1 --fail-if check\(s\) undecided, so the gate cannot pass \(first: hello\/node c=10 rps<-5% is no verdict\): .*--repeat 3 or more.*; or pass --allow-undecided/,
    );
    const allowed = await runCli(['compare', base, head, '--fail-if', 'rps<-5%', '--allow-undecided'], { timeoutMs: 20_000 });
    expect(allowed.code).toBe(0);
  });

  it('exits 3 for two targets of one run whose interval straddles the noise threshold, and 1 once a drop is decided', async () => {
    const dir = testTempDir('gate-paired');
    const straddling = resultsFile(
      dir,
      'straddling.json',
      [10_000, 10_000, 10_000, 10_000, 10_000].flatMap((b, i) => [
        cell('app-main', i + 1, b),
        cell('app-pr', i + 1, [9_000, 10_100, 9_500, 9_900, 9_400][i]!),
      ]),
    );
    const gate = ['--base', 'app-main', '--head', 'app-pr', '--fail-if', 'rps<-5%'];
    const undecided = await runCli(['compare', straddling, ...gate], { timeoutMs: 20_000 });
    expect(undecided.code).toBe(3);
    expect(undecided.stdout).toMatch(
      /- basis, hello app-pr vs app-main c=10 rps: 5 round\(s\) paired, median of the per-round ratios head\/base, 95% bootstrap interval -\d+\.\d% \.\. [+-]\d+\.\d% -> undecided/,
    );
    expect(undecided.stderr).toMatch(
      /^bench: BENCH_ERR_UNDECIDED: 1 --fail-if check\(s\) undecided.*is undecided\): .*higher --max-rounds or --max-time.*--allow-undecided[^\n]*\n$/,
    );
    const dropped = resultsFile(
      dir,
      'dropped.json',
      [10_000, 9_000, 11_000, 10_500, 9_500].flatMap((b, i) => [cell('app-main', i + 1, b), cell('app-pr', i + 1, b * 0.8)]),
    );
    const regressed = await runCli(['compare', dropped, ...gate], { timeoutMs: 20_000 });
    expect(regressed.code).toBe(1);
    expect(regressed.stdout).toMatch(/\| hello \| app-pr vs app-main \| 10 \| rps \| .* \| -20\.0% \| .* \| regressed \|/);
  });

  it('refuses --base without --head, and a target the file does not hold (exit 2)', async () => {
    const dir = testTempDir('gate-usage');
    const file = resultsFile(dir, 'one.json', [cell('app-main', 1, 100), cell('app-pr', 1, 100)]);
    const half = await runCli(['compare', file, '--base', 'app-main'], { timeoutMs: 20_000 });
    expect(half.code).toBe(2);
    expect(half.stderr).toMatch(/--base and --head go together/);
    const missing = await runCli(['compare', file, '--base', 'app-main', '--head', 'nope'], { timeoutMs: 20_000 });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no target "nope"/);
  });
});
