import { chmodSync, cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { repoRoot, runProcess } from '../support/cli.js';
import { watchDescendants } from '../support/descendants.js';
import { testTempDir } from '../support/temp-dir.js';

// An app repo of its own, outside this checkout and in a 0700 directory, with only the packed
// tarballs installed: what a user of bench does.
const home = testTempDir('app-repo');
const app = path.join(home, 'app');
const npm = (args: readonly string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 180_000) =>
  runProcess('npm', args, { cwd: app, env, timeoutMs });

beforeAll(async () => {
  const pack = await runProcess('npm', ['run', 'pack'], { timeoutMs: 180_000 });
  expect(pack.code, pack.stderr).toBe(0);
  chmodSync(home, 0o700);
  cpSync(path.join(repoRoot, 'examples', 'app'), app, { recursive: true, filter: (source) => !source.includes('node_modules') });
  const tarballs = readdirSync(path.join(repoRoot, 'packed')).map((file) => path.join(repoRoot, 'packed', file));
  // one tarball per workspace package
  const workspaces = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
  const packed = workspaces.map((dir) => {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, dir, 'package.json'), 'utf8')) as { name: string; version: string };
    return `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`;
  });
  expect(tarballs.map((t) => path.basename(t)).sort()).toEqual(packed.sort());
  const install = await npm(['install', '--save-dev', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs]);
  expect(install.code, install.stderr).toBe(0);
}, 400_000);

/** `npm run bench -- args` in the app, with every process it started followed. */
async function bench(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  let watch: ReturnType<typeof watchDescendants> | undefined;
  const result = await runProcess('npm', ['run', '--silent', 'bench', '--', ...args], {
    cwd: app,
    env,
    timeoutMs: 180_000,
    onSpawn: (child) => (watch = watchDescendants(child.pid ?? -1)),
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  watch?.stop();
  return { ...result, survivors: (await watch?.survivors()) ?? [], seen: watch?.seen() ?? [] };
}

describe('bench installed in an app repo from the packed tarballs', () => {
  it('is self-contained: nothing in node_modules points into this checkout', () => {
    const runner = path.join(app, 'node_modules', '@bench', 'runner');
    expect(existsSync(path.join(runner, 'package.json'))).toBe(true);
    expect(readFileSync(path.join(app, 'package-lock.json'), 'utf8')).not.toContain(path.join(repoRoot, 'packages'));
  });

  it('npm run bench starts the app, verifies, loads, stops, and writes every report', async () => {
    // a few hundred requests a cell, once, without the warm-up: what is asked is that every part of the run happens
    const run = await bench(['-n', '200', '--repeat', '1', '-w', '0']);
    expect(run.code, run.stderr).toBe(0);
    for (const row of [/^\| app \| 10 \| [\d,.]+ \|/m, /^\| app-cluster \| 10 \| [\d,.]+ \|/m]) expect(run.stdout).toMatch(row);
    expect(run.stdout).toMatch(/### list-items[\s\S]*### create-item/);
    expect(run.stdout).toMatch(/Thresholds: \d+ checked, 0 failed\./);
    // Node 24 and later name their main thread, which is what the kernel reports as a process's name
    expect(run.seen.filter((name) => name === 'node' || name === 'MainThread').length).toBeGreaterThan(1);
    expect(run.survivors).toEqual([]);
    const doc = runDocumentSchema.parse(JSON.parse(readFileSync(path.join(app, 'results.json'), 'utf8')));
    expect(doc.complete).toBe(true);
    expect(doc.results.map((r) => `${r.scenario}/${r.target}/${r.status}`).sort()).toEqual([
      'create-item/app-cluster/ok',
      'create-item/app/ok',
      'list-items/app-cluster/ok',
      'list-items/app/ok',
    ]);
    expect(doc.results.find((r) => r.scenario === 'create-item')?.method).toBe('POST');
    expect(doc.results.every((r) => r.failed === 0 && r.engine?.name === 'autocannon')).toBe(true);
    const summary = readFileSync(path.join(app, 'summary.txt'), 'utf8');
    expect(summary).toMatch(/^list-items app c=10 run 1: \d+ rps/m);
    expect(summary).toMatch(/^thresholds: \d+ checked, 0 failed$/m);
  });

  it('a threshold that breaks makes the run exit 1 and the report says which', async () => {
    // each answer 1.1 s late: over the p99 <1000 of the example's config, a few rounds of answers in 3 s
    const run = await bench(['list-items', '-t', 'app', '-d', '3', '--repeat', '1', '-w', '0'], { SLOW_MS: '1100' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /bench: BENCH_ERR_THRESHOLDS: \d+ of \d+ thresholds failed \(first: list-items\/app c=10 p99 <1000, got \d+/,
    );
    expect(run.stdout).toMatch(/- list-items\/app c=10: p99 <1000 \(actual [\d,.]+, from "list-items"\): FAIL/);
    expect(run.survivors).toEqual([]);
  });
});
