import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { cliPath, runProcess, waitForText } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// The articles' setup, a server host and a client host, on one machine: two network namespaces
// joined by a veth pair, private to this test (nothing is reachable from outside the machine). They
// live in a user namespace of the test's own (`unshare -Urn`), so no privilege is needed: the same
// on a developer's machine as in CI as root. Each host is a `sleep` holding its namespaces; commands
// enter them with nsenter, and the namespaces go when the holders are killed.
const server = { dev: 's0', address: '10.201.0.2' };
const client = { dev: 'c0', address: '10.201.0.1' };
const holders: ChildProcess[] = [];
/** What each holder wrote to stderr: why it exited, when it did. */
const holderErrors = new Map<ChildProcess, string>();

function holder(command: string, args: readonly string[]): ChildProcess {
  const child = spawn(command, [...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  holderErrors.set(child, '');
  child.stderr?.on('data', (chunk: Buffer) => holderErrors.set(child, (holderErrors.get(child) ?? '') + chunk.toString()));
  holders.push(child);
  return child;
}

/** A command inside a host's user and network namespaces, as the test's own user (uid 0 there). */
const inHost = (host: ChildProcess, command: readonly string[]) => [
  '-t',
  String(host.pid),
  '-U',
  '-n',
  '--preserve-credentials',
  '--',
  ...command,
];

function nsenterSync(host: ChildProcess, command: readonly string[]): void {
  const run = spawnSync('nsenter', inHost(host, command), { encoding: 'utf8' });
  if (run.status !== 0) {
    const holderSaid = [...holderErrors.values()].join(' ').trim();
    throw new Error(
      `${command.join(' ')}: ${run.stderr.trim() || `exited ${run.status}`}${holderSaid ? ` (a holder said: ${holderSaid})` : ''}`,
    );
  }
}

/**
 * Waits until a holder has entered its namespaces: its netns differs from ours and from `parent`'s, whose namespaces
 * it passes through on its way (nsenter joins them, then unshare makes its own).
 */
async function entered(host: ChildProcess, parent?: ChildProcess): Promise<void> {
  const left = [readlinkSync('/proc/self/ns/net')];
  if (parent) left.push(readlinkSync(`/proc/${parent.pid}/ns/net`));
  for (const started = Date.now(); Date.now() - started < 5000; await new Promise((r) => setTimeout(r, 20))) {
    if (host.exitCode !== null) {
      // its last words may come just after its exit
      await new Promise((r) => setTimeout(r, 100));
      throw new Error(
        `the namespace holder exited ${host.exitCode}: ${holderErrors.get(host)?.trim() || 'no message (user namespaces refused by this kernel?)'}`,
      );
    }
    try {
      if (!left.includes(readlinkSync(`/proc/${host.pid}/ns/net`))) return;
    } catch {
      // not yet there
    }
  }
  throw new Error('the namespace holder did not enter its namespaces in 5 s');
}

/**
 * A holder that has entered its namespaces. The kernel refused `unshare -Urn` once (EPERM, "Operation not permitted")
 * in a clean-clone CI run beside other files making and dropping namespaces, where it passed alone and in every other
 * run: a refused start is tried again, twice, and the last refusal fails the test.
 */
async function enteredHolder(start: () => ChildProcess, parent?: ChildProcess): Promise<ChildProcess> {
  for (let attempt = 1; ; attempt++) {
    const host = start();
    try {
      await entered(host, parent);
      return host;
    } catch (error) {
      if (attempt === 3 || host.exitCode === null || !/Operation not permitted/.test(holderErrors.get(host) ?? '')) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function createHosts(): Promise<{ clientHost: ChildProcess; serverHost: ChildProcess }> {
  const clientHost = await enteredHolder(() => holder('unshare', ['-Urn', 'sleep', '600']));
  // the server's network namespace belongs to the client's user namespace, so one user owns both
  const serverHost = await enteredHolder(() => holder('nsenter', inHost(clientHost, ['unshare', '-n', 'sleep', '600'])), clientHost);
  nsenterSync(clientHost, ['ip', 'link', 'add', client.dev, 'type', 'veth', 'peer', 'name', server.dev, 'netns', String(serverHost.pid)]);
  for (const [host, end] of [
    [clientHost, client],
    [serverHost, server],
  ] as const) {
    nsenterSync(host, ['ip', 'addr', 'add', `${end.address}/30`, 'dev', end.dev]);
    nsenterSync(host, ['ip', 'link', 'set', end.dev, 'up']);
    nsenterSync(host, ['ip', 'link', 'set', 'lo', 'up']);
  }
  return { clientHost, serverHost };
}

afterAll(() => {
  for (const child of holders) child.kill('SIGKILL');
});
const dir = testTempDir('two-hosts');

describe('two hosts', () => {
  it('bench serve --host on one, bench run --url on the other', async () => {
    const { clientHost, serverHost } = await createHosts();
    let output = () => '';
    let serve: ChildProcess | undefined;
    const served = runProcess(
      'nsenter',
      [...inHost(serverHost, [process.execPath, cliPath]), 'serve', 'node', 'hello', '--host', server.address, '--port', '8080'],
      {
        timeoutMs: 120_000,
        onSpawn: (child, out) => {
          serve = child;
          output = out;
        },
      },
    );
    try {
      await waitForText(() => output(), /bench: node serves hello at http:\/\/10\.201\.0\.2:8080\/ \(answer verified\)/, 60_000);
      // the server is not on the client's loopback, only across the veth
      const out = path.join(dir, 'run.json');
      const run = await runProcess(
        'nsenter',
        [
          ...inHost(clientHost, [process.execPath, cliPath]),
          'run',
          '--url',
          `http://${server.address}:8080/`,
          '-c',
          '4',
          '-n',
          '400',
          '-w',
          '0',
          '-r',
          'json',
          '-o',
          out,
        ],
        { timeoutMs: 120_000 },
      );
      expect(run.code, run.stderr).toBe(0);
      const [result] = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).results;
      expect(result).toMatchObject({ target: `${server.address}:8080`, requests: 400, failed: 0, non2xx: 0, statusCodes: { 200: 400 } });
      const local = await runProcess(
        'nsenter',
        [...inHost(clientHost, [process.execPath, cliPath]), 'run', '--url', 'http://127.0.0.1:8080/', '-n', '10', '-w', '0'],
        { timeoutMs: 60_000 },
      );
      expect(local.code).toBe(1); // nothing answers on the client's own loopback
    } finally {
      serve?.kill('SIGINT');
      const exit = await served;
      expect(exit.code, exit.stderr).toBe(0);
    }
  });
});
