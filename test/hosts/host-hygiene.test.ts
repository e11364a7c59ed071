import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliPath, repoRoot, runProcess, waitForText } from '../support/cli.js';
import { makeSshHosts, type SshHosts, type TestHost } from '../support/ssh-hosts.js';
import { testTempDir } from '../support/temp-dir.js';

// Nothing of a run is left on any host, however it ends: a kill -9 of the runner mid-cell, and the link to the server
// host cut mid-cell (a host that stops answering). Within 10 s, no process of the run in any host's namespace and no
// listener but sshd's.
const dir = testTempDir('host-hygiene');
const hostsReady: Promise<SshHosts> = makeSshHosts(dir, ['server', 'db']);

/** A long run on the hosts (tfb-db: three, MariaDB on the database host; hello: two); resolves once its cell measures. */
async function startLongRun(hosts: SshHosts, scenario: 'tfb-db' | 'hello') {
  let runner: ChildProcess | undefined;
  let output = () => '';
  const done = runProcess(
    'nsenter',
    hosts.enter(hosts.client, [
      process.execPath,
      cliPath,
      'run',
      scenario,
      '-t',
      'node',
      '--server-host',
      'ssh://server',
      ...(scenario === 'tfb-db' ? ['--database-host', 'ssh://db'] : []),
      '-c',
      '4',
      '-d',
      '60',
      '-w',
      '0',
      '--tfb-burst',
      '32',
      '--ssh-config',
      hosts.sshConfig,
      '--remote-dir',
      repoRoot,
    ]),
    {
      timeoutMs: 120_000,
      onSpawn: (child, out) => {
        runner = child;
        output = out;
      },
    },
  );
  // the cell's line (no warm-up: its measured run), then a second of load
  await waitForText(() => output(), new RegExp(`\\[1/1\\] ${scenario} node c=4 \\.\\.\\.`), 90_000);
  await new Promise((r) => setTimeout(r, 1000));
  return { runner: runner!, done, output };
}

/** Waits up to `ms` for every host to hold nothing of the run; what is left then. */
async function leftAfter(hosts: SshHosts, ms: number): Promise<Record<string, unknown>> {
  const all: TestHost[] = [hosts.client, ...Object.values(hosts.hosts)];
  const left = () =>
    Object.fromEntries(
      all.flatMap((host) => {
        const processes = hosts.processesIn(host);
        const listeners = hosts.listeners(host).filter((l) => !l.endsWith(':2222'));
        return processes.length + listeners.length > 0 ? [[host.name, { processes, listeners }]] : [];
      }),
    );
  const deadline = Date.now() + ms;
  while (Object.keys(left()).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  return left();
}

describe('a run on several hosts leaves nothing', () => {
  it('after a kill -9 of the runner mid-cell', async () => {
    const hosts = await hostsReady;
    const { runner, done } = await startLongRun(hosts, 'tfb-db');
    runner.kill('SIGKILL');
    await done;
    expect(await leftAfter(hosts, 10_000)).toEqual({});
  });

  it('after the link to the server host is cut mid-cell: the cell fails naming the host', async () => {
    const hosts = await hostsReady;
    const { server } = hosts.hosts as { server: TestHost };
    const { done } = await startLongRun(hosts, 'hello');
    const cut = hosts.run(hosts.client, ['ip', 'link', 'set', server.link!, 'down']);
    expect(cut.code, cut.stderr).toBe(0);
    try {
      const cutAt = Date.now();
      expect(await leftAfter(hosts, 10_000)).toEqual({});
      const ended = await done;
      expect(ended.code).toBe(1);
      expect(ended.stderr).toMatch(/server went away: /);
      expect(Date.now() - cutAt).toBeLessThan(30_000);
    } finally {
      hosts.run(hosts.client, ['ip', 'link', 'set', server.link!, 'up']);
    }
  });
});
