import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { cliPath, repoRoot, runProcess, type CliOptions } from '../support/cli.js';
import { makeSshHosts, type SshHosts, type TestHost } from '../support/ssh-hosts.js';
import { testTempDir } from '../support/temp-dir.js';

// `bench run --server-host`: the stacks start on a host of their own, reached over SSH, and are verified, sampled and
// measured from the client as on one machine. Three "hosts" (network namespaces, each with its own address), a real
// sshd on the server and database hosts, the runner in the client's namespace.
const dir = testTempDir('server-host');
const hostsReady: Promise<SshHosts> = makeSshHosts(dir, ['server', 'db']);

/** `bench ARGS` in the client's namespace, with the test's ssh config and this checkout as the hosts' install. */
async function benchOnClient(hosts: SshHosts, args: readonly string[], onSpawn?: CliOptions['onSpawn']) {
  return runProcess(
    'nsenter',
    hosts.enter(hosts.client, [process.execPath, cliPath, ...args, '--ssh-config', hosts.sshConfig, '--remote-dir', repoRoot]),
    { timeoutMs: 170_000, ...(onSpawn ? { onSpawn } : {}) },
  );
}

/** Each host's TCP listeners, looked at every 100 ms until `done` settles. */
async function watchListeners(hosts: SshHosts, done: Promise<unknown>): Promise<Map<TestHost, Set<string>>> {
  const seen = new Map<TestHost, Set<string>>([hosts.client, ...Object.values(hosts.hosts)].map((h) => [h, new Set<string>()]));
  let finished = false;
  void done.finally(() => (finished = true));
  while (!finished) {
    for (const [host, set] of seen) for (const local of hosts.listeners(host)) set.add(local);
    await new Promise((r) => setTimeout(r, 100));
  }
  return seen;
}

const portOf = (url: string) => new URL(url).port;

describe('bench run --server-host', () => {
  it('starts node and php-fpm on the server host only, verifies them and samples their CPU there', async () => {
    const hosts = await hostsReady;
    const { server } = hosts.hosts as { server: TestHost };
    const out = path.join(dir, 'two-hosts.json');
    const run = benchOnClient(hosts, [
      'run',
      'hello',
      '-t',
      'node,php-fpm',
      '--server-host',
      'ssh://server',
      '-c',
      '8',
      '-d',
      '2',
      // held at a rate (wire's open loop): the stacks must answer for two seconds, not take every CPU share they can
      '--rate',
      '400',
      '-w',
      '0',
      '-r',
      'json',
      '-o',
      out,
      '-r',
      'markdown',
    ]);
    const listeners = await watchListeners(hosts, run);
    const done = await run;
    expect(done.code, done.stderr).toBe(0);
    const doc = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(doc.machine.sharedHost).toBe(false);
    expect(doc.hosts).toMatchObject({ server: { name: 'server', address: server.address, bench: doc.tool.version } });
    expect(doc.hosts?.link?.bytesPerSecond).toBeGreaterThan(0);
    expect(doc.results.map((r) => r.target).sort()).toEqual(['node', 'php-fpm']);
    for (const cell of doc.results) {
      expect(cell, cell.error).toMatchObject({ status: 'ok', failed: 0, hosts: { server: 'server', services: 'server' } });
      expect(new URL(cell.url).hostname).toBe(server.address);
      // the stack's CPU was sampled there, while it answered
      expect(cell.resources?.server?.cpuPercent).toBeGreaterThan(0);
      expect(cell.series?.some((s) => (s.server?.cpuPercent ?? 0) > 0)).toBe(true);
      // its port listened on the server host's address, and on no other host
      const port = portOf(cell.url);
      expect([...listeners.get(server)!]).toContain(`${server.address}:${port}`);
      for (const other of [hosts.client, hosts.hosts.db!])
        expect([...listeners.get(other)!].some((l) => l.endsWith(`:${port}`))).toBe(false);
    }
    // every report names the hosts
    expect(done.stdout).toMatch(/^Server host: server \(10\.207\.0\.2\): the stacks and their services; \d+ x .*, bench \d/m);
    // nothing of the run is left on the server host
    expect(hosts.processesIn(server)).toEqual([]);
  });
});

describe('bench run --database-host', () => {
  it("starts MariaDB on the database host only, for the server host's stack", async () => {
    const hosts = await hostsReady;
    const { server, db } = hosts.hosts as { server: TestHost; db: TestHost };
    const out = path.join(dir, 'three-hosts.json');
    const run = benchOnClient(hosts, [
      'run',
      'tfb-db',
      '-t',
      'node',
      '--server-host',
      'ssh://server',
      '--database-host',
      'ssh://db',
      '-c',
      '4',
      '-d',
      '1',
      '-w',
      '0',
      '--tfb-burst',
      '64',
      '-r',
      'json',
      '-o',
      out,
    ]);
    const listeners = await watchListeners(hosts, run);
    const done = await run;
    expect(done.code, done.stderr).toBe(0);
    const doc = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(doc.hosts).toMatchObject({ server: { name: 'server' }, database: { name: 'db', address: db.address } });
    const [cell] = doc.results;
    expect(cell, cell?.error).toMatchObject({ status: 'ok', failed: 0, hosts: { server: 'server', services: 'db' } });
    // the stack asked the database on the other host: its counters moved there
    expect(cell?.backend?.mysql?.delta).toBeGreaterThan(0);
    // MariaDB listened on the database host's address, and on no other host
    const onDb = [...listeners.get(db)!].filter((l) => l.startsWith(`${db.address}:`) && !l.endsWith(':2222'));
    expect(onDb.length).toBeGreaterThan(0);
    for (const other of [hosts.client, server])
      for (const local of onDb) expect([...listeners.get(other)!].some((l) => l.endsWith(`:${local.split(':')[1]}`))).toBe(false);
    expect(hosts.processesIn(db)).toEqual([]);
    expect(hosts.processesIn(server)).toEqual([]);
  });
});

describe('bench verify --server-host', () => {
  it('checks each stack on the server host, one start for every scenario it serves', async () => {
    const hosts = await hostsReady;
    const run = await benchOnClient(hosts, [
      'verify',
      'hello,tfb-json,tfb-plaintext',
      '-t',
      'node,php-fpm',
      '--server-host',
      'ssh://server',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^node\s+ok\s+ok\s+ok\s*$/m);
    expect(run.stdout).toMatch(/^php-fpm\s+ok\s+ok\s+ok\s*$/m);
    expect(hosts.processesIn(hosts.hosts.server!)).toEqual([]);
  });
});
