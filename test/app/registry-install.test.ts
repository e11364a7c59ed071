import { existsSync, lstatSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runProcess } from '../support/cli.js';
import { watchDescendants } from '../support/descendants.js';
import { npmEnv, startLocalRegistry, type LocalRegistry } from '../support/local-registry.js';
import { testTempDir } from '../support/temp-dir.js';

// bench as any npm package: published to a real registry (verdaccio on 127.0.0.1, third-party
// packages through its uplink), installed into a fresh app with `npm install --save-dev`, run there.
const dir = testTempDir('registry');
const app = path.join(dir, 'app');
const workspaces = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
const manifest = (folder: string) =>
  JSON.parse(readFileSync(path.join(repoRoot, folder, 'package.json'), 'utf8')) as { name: string; version: string; types?: string };
let registry: LocalRegistry;
interface PublishReport {
  id: string;
  files: { path: string }[];
}

const npm = (args: readonly string[], cwd = repoRoot, timeoutMs = 120_000) =>
  runProcess('npm', [...args, '--registry', registry.url, '--userconfig', registry.npmrc, '--no-audit', '--no-fund'], {
    cwd,
    env: npmEnv(),
    timeoutMs,
  });

beforeAll(async () => {
  registry = await startLocalRegistry(dir);
});
afterAll(async () => {
  await registry?.stop();
});

describe('bench installed from a registry', () => {
  it('every workspace package publishes as it is, with its README, LICENSE, CHANGELOG and types', async () => {
    const published = await Promise.all(workspaces.map((folder) => npm(['publish', `./${folder}`, '--json', '--ignore-scripts'])));
    for (const [i, answer] of published.entries()) {
      const folder = workspaces[i] ?? '';
      expect(answer.code, `${folder}: ${answer.stderr}`).toBe(0);
      const { name, version, types } = manifest(folder);
      // npm 11 keys the report by package name
      const parsed = JSON.parse(answer.stdout.slice(answer.stdout.indexOf('{'))) as Record<string, PublishReport | undefined>;
      const report = parsed[name] ?? (parsed as unknown as PublishReport);
      expect(report.id).toBe(`${name}@${version}`);
      const files = report.files.map((f) => f.path);
      expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']));
      if (types) expect(files).toContain(types.replace(/^\.\//, ''));
    }
  });

  it('npm install --save-dev @bench/runner brings the other packages from the registry, nothing from this checkout', async () => {
    mkdirSync(app);
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'registry-app', private: true, type: 'module' }, null, 2));
    const install = await npm(['install', '--save-dev', '@bench/runner'], app);
    expect(install.code, install.stderr).toBe(0);
    const pkg = JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
    expect(pkg.devDependencies?.['@bench/runner']).toMatch(/^\^\d+\.\d+\.\d+/);
    const lock = JSON.parse(readFileSync(path.join(app, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { resolved?: string; link?: boolean }>;
    };
    for (const folder of workspaces) {
      const { name } = manifest(folder);
      const installed = path.join(app, 'node_modules', name);
      expect(existsSync(path.join(installed, 'package.json')), name).toBe(true);
      expect(lstatSync(installed).isSymbolicLink(), name).toBe(false);
      expect(lock.packages[`node_modules/${name}`]?.resolved, name).toMatch(new RegExp(`^${registry.url.replace(/[.]/g, '\\.')}`));
    }
    expect(readFileSync(path.join(app, 'package-lock.json'), 'utf8')).not.toContain(repoRoot);
  });

  it('npx bench run measures there, and leaves no process behind', async () => {
    let watch: ReturnType<typeof watchDescendants> | undefined;
    const run = await runProcess('npx', ['--no', 'bench', 'run', 'hello', '-t', 'node', '-c', '5', '-d', '1', '--warmup-max', '1'], {
      cwd: app,
      env: npmEnv(),
      timeoutMs: 60_000,
      onSpawn: (child) => (watch = watchDescendants(child.pid ?? -1)),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    watch?.stop();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^\| node \| 5 \| [\d,.]+ \|/m);
    expect((await watch?.survivors()) ?? []).toEqual([]);
  });
});
