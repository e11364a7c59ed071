import { spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { cliPath, runProcess, waitForText } from './support/cli.js';
import { testTempDir } from './support/temp-dir.js';

// The articles' setup, a server host and a client host, on one machine: two network namespaces
// joined by a veth pair, private to this test (nothing is reachable from outside the machine).
const tag = `bt${process.pid}`;
const server = { ns: `${tag}s`, dev: `${tag}s0`, address: '10.201.0.2' };
const client = { ns: `${tag}c`, dev: `${tag}c0`, address: '10.201.0.1' };

const sh = (args: string[]) => spawnSync(args[0] ?? 'ip', args.slice(1), { encoding: 'utf8' });

function createNamespaces(): string | undefined {
  const probe = sh(['ip', 'netns', 'add', server.ns]);
  if (probe.status !== 0) return probe.stderr.trim() || `ip netns add exited ${probe.status}`;
  const steps = [
    ['ip', 'netns', 'add', client.ns],
    ['ip', 'link', 'add', server.dev, 'type', 'veth', 'peer', 'name', client.dev],
    ['ip', 'link', 'set', server.dev, 'netns', server.ns],
    ['ip', 'link', 'set', client.dev, 'netns', client.ns],
    ['ip', '-n', server.ns, 'addr', 'add', `${server.address}/30`, 'dev', server.dev],
    ['ip', '-n', client.ns, 'addr', 'add', `${client.address}/30`, 'dev', client.dev],
    ...[server, client].flatMap((h) => [
      ['ip', '-n', h.ns, 'link', 'set', h.dev, 'up'],
      ['ip', '-n', h.ns, 'link', 'set', 'lo', 'up'],
    ]),
  ];
  for (const step of steps) {
    const run = sh(step);
    if (run.status !== 0) throw new Error(`${step.join(' ')}: ${run.stderr}`);
  }
  return undefined;
}

const removeNamespaces = () => {
  for (const h of [server, client]) sh(['ip', 'netns', 'del', h.ns]); // deleting a namespace removes its end of the veth, and so the pair
};

const refused = createNamespaces();
afterAll(removeNamespaces);
const dir = testTempDir('two-hosts');

describe('two hosts', () => {
  // Skipped only on a developer's machine whose kernel or container refuses network namespaces (no CAP_SYS_ADMIN):
  // there is no second host to be had. In CI (CI=true, as root) it always runs, and a refusal fails it.
  it.skipIf(refused !== undefined && process.env.CI !== 'true')(`bench serve --host on one, bench run --url on the other (${refused ?? 'namespaces available'})`, async () => {
    expect(refused, 'creating two network namespaces joined by a veth pair').toBeUndefined();
    let output = () => '';
    let serve: ChildProcess | undefined;
    const served = runProcess('ip', ['netns', 'exec', server.ns, process.execPath, cliPath, 'serve', 'node', 'hello', '--host', server.address, '--port', '8080'], {
      timeoutMs: 120_000,
      onSpawn: (child, out) => {
        serve = child;
        output = out;
      },
    });
    try {
      await waitForText(() => output(), /bench: node serves hello at http:\/\/10\.201\.0\.2:8080\/ \(answer verified\)/, 60_000);
      // the server is not on the client's loopback, only across the veth
      const out = path.join(dir, 'run.json');
      const run = await runProcess('ip', ['netns', 'exec', client.ns, process.execPath, cliPath, 'run', '--url', `http://${server.address}:8080/`, '-c', '4', '-n', '400', '-w', '0', '-r', 'json', '-o', out], { timeoutMs: 120_000 });
      expect(run.code, run.stderr).toBe(0);
      const [result] = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).results;
      expect(result).toMatchObject({ target: `${server.address}:8080`, requests: 400, failed: 0, non2xx: 0, statusCodes: { 200: 400 } });
      const local = await runProcess('ip', ['netns', 'exec', client.ns, process.execPath, cliPath, 'run', '--url', 'http://127.0.0.1:8080/', '-n', '10', '-w', '0'], { timeoutMs: 60_000 });
      expect(local.code).toBe(1); // nothing answers on the client's own loopback
    } finally {
      serve?.kill('SIGINT');
      const exit = await served;
      expect(exit.code, exit.stderr).toBe(0);
    }
  });
});
