import { cpSync, existsSync, rmSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runProcess } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// The wire engine's native core as the published package carries it: a stripped binary per platform in prebuildify's
// layout (built here with Debian's gcc for each, gcc-aarch64-linux-gnu for arm64), loaded by node-gyp-build; its C
// source and build script for a machine without one.
const engines = path.join(repoRoot, 'packages', 'engines');
const fixture = path.join(repoRoot, 'test', 'fixtures', 'wire-closed-loop.mjs');
const binaries = { 'linux-x64': 'X86-64', 'linux-arm64': 'AArch64' };
const dir = testTempDir('prebuilds');
let packed: string[] = [];
let requests = 0;
let server: http.Server;
let url = '';

const run = async (command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) => {
  const answer = await runProcess(command, args, { env, timeoutMs: 120_000 });
  expect(answer.code, `${command} ${args.join(' ')}: ${answer.stderr}`).toBe(0);
  return answer.stdout;
};
/** wire's closed loop run by test/fixtures/wire-closed-loop.mjs with the package in `folder`, and what it printed. */
const closedLoop = async (folder: string, node: readonly string[] = [process.execPath]) => {
  requests = 0;
  const printed = await run(node[0]!, [...node.slice(1), fixture, folder, url]);
  return JSON.parse(printed) as {
    arch: string;
    requests: number;
    inHistogram: number;
    connections: number;
    failures: number;
    variant: string;
    nativeRefused?: string;
  };
};

beforeAll(async () => {
  await run(process.execPath, [path.join(engines, 'scripts', 'build-native.mjs'), '--all']);
  // what npm would publish (its prepack builds the same binaries again), unpacked in `dir`
  const report = await run('npm', ['pack', engines, '--ignore-scripts', '--json', '--pack-destination', dir]);
  const [{ filename, files }] = JSON.parse(report) as [{ filename: string; files: { path: string }[] }];
  packed = files.map((f) => f.path);
  await run('tar', ['-xzf', path.join(dir, filename), '-C', dir]);
  // the package's dependencies, as an app's node_modules would hold them
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  server = http.createServer((_request, response) => {
    requests++;
    response.end('Hello World');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe("the wire engine's native core, published", () => {
  it("is packed stripped for linux-x64 and linux-arm64, needing no glibc newer than Node 22's (2.28), with its C source and build script", async () => {
    for (const [platform, machine] of Object.entries(binaries)) {
      const file = `prebuilds/${platform}/wire-loop.napi.glibc.node`;
      expect(packed).toContain(file);
      const binary = path.join(dir, 'package', file);
      expect(await run('readelf', ['-h', binary])).toMatch(new RegExp(`Machine:.* ${machine}$`, 'm'));
      expect(await run('readelf', ['-SW', binary])).not.toMatch(/\.symtab|\.debug_/);
      const glibc = [...(await run('readelf', ['--dyn-syms', '-W', binary])).matchAll(/GLIBC_2\.(\d+)/g)].map((m) => Number(m[1]));
      expect(Math.max(...glibc), platform).toBeLessThanOrEqual(28);
    }
    expect(packed).toEqual(expect.arrayContaining(['native/wire-loop.c', 'scripts/build-native.mjs']));
    expect(packed.filter((file) => file.startsWith('src/') || file.startsWith('native/fuzz/') || file.startsWith('build/'))).toEqual([]);
  });

  it("runs wire's closed loop on an arm64 Node under qemu, from the arm64 binary", async () => {
    const bin = (await run('bash', [path.join(repoRoot, 'scripts', 'setup', 'fetch-node.sh'), '24', 'arm64'])).trim();
    // --jitless: qemu translates every piece of code V8 compiles once more; interpreted, the run cost 8.2-9.0 s of CPU
    // here against 9.5-10.3 s (the loop itself is the binary's C either way)
    const m = await closedLoop(path.join(dir, 'package'), [
      'qemu-aarch64',
      '-L',
      '/usr/aarch64-linux-gnu',
      path.join(bin, 'node'),
      '--jitless',
    ]);
    expect(m).toEqual({ arch: 'arm64', requests: 400, inHistogram: 400, connections: 4, failures: 0, variant: 'native core' });
    expect(requests).toBe(400);
  });

  it('is compiled at install where there is no binary for the machine, and without a C compiler wire runs its js core, saying so in one line', async () => {
    const copy = path.join(dir, 'bare');
    cpSync(path.join(dir, 'package'), copy, { recursive: true });
    rmSync(path.join(copy, 'prebuilds'), { recursive: true });
    const install = (env: NodeJS.ProcessEnv = {}) =>
      run(process.execPath, [path.join(copy, 'scripts', 'build-native.mjs'), '--install'], env);

    expect(await install({ CC: '/nonexistent/cc' })).toBe(
      `@bench/engines: no native core for linux-${process.arch} (no prebuilt binary; /nonexistent/cc: not found): wire runs its js core\n`,
    );
    expect(existsSync(path.join(copy, 'build'))).toBe(false);
    const js = await closedLoop(copy);
    expect([js.variant, js.requests, requests]).toEqual(['js core', 400, 400]);
    expect(js.nativeRefused).toMatch(/^--core native: it has no binary for linux-\w+ \(prebuilt for linux-x64 and linux-arm64/);

    expect(await install()).toMatch(/^@bench\/engines: compiled wire's native core for linux-\w+ with cc \(no prebuilt binary\)\n$/);
    expect(existsSync(path.join(copy, 'build', 'Release', 'wire-loop.node'))).toBe(true);
    expect((await closedLoop(copy)).variant).toBe('native core');
  });
});
