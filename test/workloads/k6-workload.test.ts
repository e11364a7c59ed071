import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort, runDocumentSchema } from '@bench/core';
import { repoRoot, runCli } from '../support/cli.js';
import { runExportReadme } from '../support/k6-path.js';
import { testTempDir } from '../support/temp-dir.js';

// The example app and the recording server, started here (an export drives a server bench does not start).
const app = path.join(repoRoot, 'examples', 'app', 'server.mjs');
const dir = testTempDir('k6-workload');
let base = '';
let recorder = '';
const children: ReturnType<typeof spawn>[] = [];

/** A server started here from `file`, ready when `ready` answers 2xx. */
async function startServer(file: string, ready: string): Promise<string> {
  const port = await findFreePort();
  children.push(spawn(process.execPath, [file], { env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore' }));
  const url = `http://127.0.0.1:${port}`;
  const answers = () =>
    fetch(url + ready).then(
      (r) => r.ok,
      () => false,
    );
  for (let i = 0; i < 100; i++) {
    if (await answers()) return url;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${file} did not start`);
}

beforeAll(async () => {
  base = await startServer(app, '/health');
  recorder = await startServer(path.join(repoRoot, 'test', 'fixtures', 'servers', 'recording-server.mjs'), '/health');
});
afterAll(() => children.forEach((child) => child.kill()));

const stats = async () => (await (await fetch(`${base}/api/stats`)).json()) as Record<string, number>;

describe('a workload exported for k6', () => {
  it('runs the flow from the export on two generators, and import reads the same counts per step as the server', async () => {
    const config = path.join(dir, 'bench.config.ts');
    writeFileSync(
      config,
      readFileSync(path.join(repoRoot, 'examples', 'app', 'bench.workload.config.ts'), 'utf8')
        .replace("import { defineConfig } from '@bench/runner';", '')
        .replace('defineConfig(', '('),
    );
    const out = path.join(dir, 'export');
    const exported = await runCli([
      'export',
      'k6',
      'shop',
      '--config',
      config,
      '--url',
      base,
      '-c',
      '4',
      '-d',
      '3',
      '--generators',
      '2',
      '--out',
      out,
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    const script = readFileSync(path.join(out, 'script.js'), 'utf8');
    expect(script).toContain('tags: { name: step.name }');

    const before = await stats();
    const runs = await runExportReadme(out);
    expect(runs).toHaveLength(2);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const after = await stats();

    const imported = await runCli(['import', out, '-r', 'json', '-o', path.join(dir, 'imported.json')]);
    expect(imported.code, imported.stderr).toBe(0);
    const cell = runDocumentSchema.parse(JSON.parse(readFileSync(path.join(dir, 'imported.json'), 'utf8'))).results[0]!;
    const steps = Object.fromEntries(cell.steps!.map((s) => [s.name, s]));
    expect(Object.keys(steps)).toEqual(['login', 'get-item', 'create-item']);
    // every request k6 sent was answered and sampled: the server's counts exactly, one login per VU (4 over the two)
    expect(steps.login!.requests).toBe(after.login! - before.login!);
    expect(steps.login!.requests).toBe(4);
    expect(steps['get-item']!.requests).toBe(after.byId! - before.byId!);
    expect(steps['create-item']!.requests).toBe(after.create! - before.create!);
    expect(after.refused).toBe(before.refused);
    expect(cell.failed).toBe(0);
    const reads = steps['get-item']!.requests;
    expect(Math.abs((reads / (reads + steps['create-item']!.requests)) * 100 - 80)).toBeLessThan(1);
  });

  it('keeps counters unique over two k6 generators (each VU strides by its id in the test)', async () => {
    const run = await runCli([
      'run',
      '--url',
      `${recorder}/v/n-{{counter}}`,
      '--engine',
      'k6',
      '--generators',
      '2',
      '-c',
      '6',
      '-d',
      '2',
      '-w',
      '0',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const values = (await (await fetch(`${recorder}/__received`)).json()) as string[];
    expect(values[0]).toBe('n-0'); // the verification request
    // enough for the two generators' six VUs to collide many times over were they not strided (a count, not a speed:
    // 805 in 2 s on a machine busy with four other files, thousands idle)
    expect(values.length).toBeGreaterThan(200);
    expect(new Set(values).size).toBe(values.length);
  });
});
