import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath, repoRoot, runProcess } from '../support/cli.js';
import { makeSshHosts, type SshHosts } from '../support/ssh-hosts.js';
import { testTempDir } from '../support/temp-dir.js';

// What --server-host refuses before anything starts, each in one line with exit 2: a host that cannot be reached, a key
// it refuses, no bench there, another bench there, a target whose packages that host lacks. The "bare" host runs sshd
// but has no nginx (a mount of /dev/null over it, in a mount namespace of its own).
const dir = testTempDir('host-refusals');
const hostsReady: Promise<SshHosts> = makeSshHosts(dir, ['server', 'bare'], { bare: ['/usr/sbin/nginx'] });

async function bench(hosts: SshHosts, args: readonly string[], sshConfig = hosts.sshConfig) {
  return runProcess('nsenter', hosts.enter(hosts.client, [process.execPath, cliPath, ...args, '--ssh-config', sshConfig]), {
    timeoutMs: 120_000,
  });
}

/** One line on stderr, exit 2, its code first. */
function refused(run: { code: number | null; stderr: string }, code: string, pattern: RegExp): void {
  expect(run.code, run.stderr).toBe(2);
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^bench: ${code}: `));
  expect(lines[0]).toMatch(pattern);
}

describe('--server-host refuses', () => {
  it('a host nothing answers on', async () => {
    const hosts = await hostsReady;
    const run = await bench(hosts, ['run', 'hello', '-t', 'node', '--server-host', `ssh://${hosts.hosts.server!.address}:2999`]);
    refused(run, 'BENCH_ERR_HOST_UNREACHABLE', /cannot reach 10\.207\.0\.2:2999 over SSH: .*Connection refused/);
  });

  it('a key the host does not take, never asking for a password', async () => {
    const hosts = await hostsReady;
    const other = path.join(dir, 'other_key');
    const made = await runProcess('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', other]);
    expect(made.code).toBe(0);
    const config = path.join(dir, 'other_config');
    writeFileSync(config, readFileSync(hosts.sshConfig, 'utf8').replaceAll(path.join(dir, 'id_ed25519'), other));
    chmodSync(config, 0o600);
    const run = await bench(hosts, ['run', 'hello', '-t', 'node', '--server-host', 'ssh://server', '--remote-dir', repoRoot], config);
    refused(
      run,
      'BENCH_ERR_HOST_AUTH',
      /server refused this machine over SSH \(10\.207\.0\.2: Permission denied \(publickey\)\.?\).*never asks for a password/,
    );
  });

  it('a host without bench', async () => {
    const hosts = await hostsReady;
    const empty = path.join(dir, 'no-bench-here');
    mkdirSync(empty, { recursive: true });
    const run = await bench(hosts, ['run', 'hello', '-t', 'node', '--server-host', 'ssh://server', '--remote-dir', empty]);
    refused(run, 'BENCH_ERR_HOST_NO_BENCH', new RegExp(`no bench on server in ${empty}: install the same bench there`));
  });

  it('a host with another version of bench, naming both', async () => {
    const hosts = await hostsReady;
    // an install whose bench says it is 0.0.1: its agent's hello, then nothing
    const older = path.join(dir, 'older-bench');
    mkdirSync(path.join(older, 'node_modules', '.bin'), { recursive: true });
    const hello = JSON.stringify({
      event: 'hello',
      protocol: 1,
      bench: '0.0.1',
      host: {
        hostname: 'x',
        platform: 'linux',
        release: '6',
        arch: 'x64',
        cpus: 1,
        cpuModel: 'x',
        memoryBytes: 1,
        node: 'v20',
        bench: '0.0.1',
      },
      cores: 1,
      address: '10.207.0.2',
    });
    const script = path.join(older, 'node_modules', '.bin', 'bench');
    writeFileSync(path.join(older, 'package.json'), '{"name":"older","version":"1.0.0"}\n');
    writeFileSync(script, `#!/bin/sh\necho '${hello}'\ncat >/dev/null\n`);
    chmodSync(script, 0o755);
    const run = await bench(hosts, ['run', 'hello', '-t', 'node', '--server-host', 'ssh://server', '--remote-dir', older]);
    refused(run, 'BENCH_ERR_HOST_VERSION', /bench \d+\.\d+\.\d+ here, bench 0\.0\.1 on server: install bench \d+\.\d+\.\d+ there/);
  });

  it("a target whose packages the host lacks, with that host's apt-get line; bench doctor --server-host shows them", async () => {
    const hosts = await hostsReady;
    const run = await bench(hosts, ['run', 'hello', '-t', 'php-fpm', '--server-host', 'ssh://bare', '--remote-dir', repoRoot]);
    refused(
      run,
      'BENCH_ERR_TARGET_UNAVAILABLE',
      /target "php-fpm" is not available: on bare: nginx not found \(apt-get install nginx\) \(`bench doctor --server-host ssh:\/\/bare` lists what it lacks\)/,
    );
    const doctor = await bench(hosts, ['doctor', '--server-host', 'ssh://bare', '--remote-dir', repoRoot]);
    expect(doctor.code, doctor.stderr).toBe(0);
    expect(doctor.stdout).toMatch(/^On bare:/);
    expect(doctor.stdout).toMatch(/php-fpm\s+no\s+.*nginx not found/);
    expect(doctor.stdout).toMatch(/To install everything missing \(as root\): apt-get install -y .*nginx/);
  });
});
