import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort, runDocumentSchema } from '@bench/core';
import { repoRoot, runCli } from '../support/cli.js';
import { runExportReadme } from '../support/k6-path.js';
import { testTempDir } from '../support/temp-dir.js';

// The example app, started here (an export drives a server bench does not start), and the example's workload config.
const app = path.join(repoRoot, 'examples', 'app', 'server.mjs');
const dir = testTempDir('k6-workload');
let base = '';
let server: ReturnType<typeof spawn> | undefined;

beforeAll(async () => {
  const port = await findFreePort();
  server = spawn(process.execPath, [app], { env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore' });
  base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the example app did not start');
});
afterAll(() => server?.kill());

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
});
