import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { SCOPE_VARIABLE } from './test-scope.js';

// Hosts for the tests of --server-host and --database-host, on one machine: a network namespace each, made by the
// test (never the system's), joined by a bridge in the client's namespace, each server host running OpenSSH's daemon
// with a config, host key and authorized key of the test's own (never the system's service). Load goes only to these
// addresses. The tests need root (CI runs as root): a daemon that logs users in needs it, and so do the namespaces
// without a user namespace of their own, in which sshd's privilege separation cannot work.

const SSHD = '/usr/sbin/sshd';
const SSH_PORT = 2222;

export interface TestHost {
  readonly name: string;
  readonly address: string;
  /** The process holding its namespaces (a `sleep`); commands enter them with nsenter -t. */
  readonly holder: ChildProcess;
  /** Its network namespace, as /proc/PID/ns/net reads (net:[inode]). */
  readonly netns: string;
  /** The veth end of its link in the client's namespace (down: the host is cut off). */
  readonly link?: string;
  /** Its sshd, when it runs one. */
  sshd?: ChildProcess;
}

export interface SshHosts {
  readonly client: TestHost;
  readonly hosts: Readonly<Record<string, TestHost>>;
  /** The ssh config naming each server host by its name (Host NAME, HostName ADDRESS, the test's key and known_hosts). */
  readonly sshConfig: string;
  /** The folder of the keys, configs and logs. */
  readonly dir: string;
  /** A command in a host's namespaces; its output. */
  run(host: TestHost, command: readonly string[]): { code: number | null; stdout: string; stderr: string };
  /** nsenter's arguments for a command in a host's namespaces. */
  enter(host: TestHost, command: readonly string[]): string[];
  /**
   * Every process in the host's network namespace but its holder and its sshd's (the daemon, and a session that waits
   * for a link that was cut to time out): what a run left there.
   */
  processesIn(host: TestHost): Array<{ pid: number; cmdline: string }>;
  /** The TCP listeners in the host's namespace, as `ss -ltnH` prints them (local address and port). */
  listeners(host: TestHost): string[];
}

/** What the test's key may do on every host: anything its own user may (as root: root). */
const user = os.userInfo().username;

function holder(args: readonly string[]): ChildProcess {
  const child = spawn(args[0]!, args.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.resume();
  return child;
}

async function netnsOf(child: ChildProcess): Promise<string> {
  const ours = readlinkSync('/proc/self/ns/net');
  for (const started = Date.now(); Date.now() - started < 5000; await new Promise((r) => setTimeout(r, 20))) {
    if (child.exitCode !== null) throw new Error(`the namespace holder exited ${child.exitCode}`);
    try {
      const ns = readlinkSync(`/proc/${child.pid}/ns/net`);
      if (ns !== ours) return ns;
    } catch {
      // not yet there
    }
  }
  throw new Error('the namespace holder did not enter its namespace in 5 s');
}

const enter = (host: TestHost, command: readonly string[]) => ['-t', String(host.holder.pid), '-n', '-m', '--', ...command];

function runIn(host: TestHost, command: readonly string[]) {
  const run = spawnSync('nsenter', enter(host, command), { encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

function must(host: TestHost, command: readonly string[]): void {
  const run = runIn(host, command);
  if (run.code !== 0) throw new Error(`${host.name}: ${command.join(' ')}: ${run.stderr.trim() || `exited ${run.code}`}`);
}

/**
 * A client host and one host per name in `servers` (10.207.0.1 the client, then .2, .3, ...), each server host running
 * sshd on port 2222. `hidden` lists, per host, programs that host lacks (each bind-mounted over by /dev/null in a
 * mount namespace of that host's own, so it is found but cannot run). Everything goes when the file's tests end.
 */
export async function makeSshHosts(
  dir: string,
  servers: readonly string[],
  hidden: Readonly<Record<string, readonly string[]>> = {},
): Promise<SshHosts> {
  if (process.getuid?.() !== 0)
    throw new Error('the SSH host tests start sshd in network namespaces of their own, which needs root: run them as root (CI does)');
  const made: TestHost[] = [];
  afterAll(() => {
    for (const host of made) {
      host.sshd?.kill('SIGKILL');
      host.holder.kill('SIGKILL');
    }
  });
  const make = async (name: string, address: string, link?: string): Promise<TestHost> => {
    const child = holder(['unshare', '-n', '-m', '--propagation', 'private', 'sleep', '3600']);
    const host: TestHost = { name, address, holder: child, netns: await netnsOf(child), ...(link ? { link } : {}) };
    made.push(host);
    return host;
  };
  const subnet = '10.207.0';
  const client = await make('client', `${subnet}.1`);
  must(client, ['ip', 'link', 'set', 'lo', 'up']);
  must(client, ['ip', 'link', 'add', 'br0', 'type', 'bridge']);
  must(client, ['ip', 'addr', 'add', `${client.address}/24`, 'dev', 'br0']);
  must(client, ['ip', 'link', 'set', 'br0', 'up']);
  const hosts: Record<string, TestHost> = {};
  for (const [i, name] of servers.entries()) {
    const host = await make(name, `${subnet}.${i + 2}`, `v${i}`);
    must(client, ['ip', 'link', 'add', `v${i}`, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', String(host.holder.pid)]);
    must(client, ['ip', 'link', 'set', `v${i}`, 'master', 'br0']);
    must(client, ['ip', 'link', 'set', `v${i}`, 'up']);
    must(host, ['ip', 'addr', 'add', `${host.address}/24`, 'dev', 'eth0']);
    must(host, ['ip', 'link', 'set', 'eth0', 'up']);
    must(host, ['ip', 'link', 'set', 'lo', 'up']);
    for (const program of hidden[name] ?? []) must(host, ['mount', '--bind', '/dev/null', program]);
    hosts[name] = host;
  }

  // the test's keys: one the hosts accept, and the hosts' own
  const keygen = (file: string) => {
    const made = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'bench-test', '-f', file], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`ssh-keygen: ${made.stderr}`);
  };
  keygen(path.join(dir, 'id_ed25519'));
  keygen(path.join(dir, 'host_ed25519'));
  writeFileSync(path.join(dir, 'authorized_keys'), readFileSync(path.join(dir, 'id_ed25519.pub')));
  const hostKey = readFileSync(path.join(dir, 'host_ed25519.pub'), 'utf8').trim().split(' ').slice(0, 2).join(' ');
  writeFileSync(
    path.join(dir, 'known_hosts'),
    Object.values(hosts)
      .map((h) => `[${h.address}]:${SSH_PORT} ${hostKey}\n`)
      .join(''),
  );
  // sshd's privilege separation dir, as Debian's service makes it
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const sessionEnv = [
    `PATH=${process.env.PATH ?? ''}`,
    `TMPDIR=${os.tmpdir()}`,
    ...(process.env[SCOPE_VARIABLE] ? [`${SCOPE_VARIABLE}=${process.env[SCOPE_VARIABLE]}`] : []),
  ];
  for (const host of Object.values(hosts)) {
    const config = path.join(dir, `sshd-${host.name}.conf`);
    writeFileSync(
      config,
      [
        `ListenAddress ${host.address}:${SSH_PORT}`,
        `HostKey ${path.join(dir, 'host_ed25519')}`,
        `PidFile ${path.join(dir, `sshd-${host.name}.pid`)}`,
        `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
        'PubkeyAuthentication yes',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'PermitRootLogin prohibit-password',
        // the test's files live under the temp folder, which is world-writable (1777)
        'StrictModes no',
        'UsePAM no',
        // each session sees the test's PATH (the Node that runs the tests) and temp folder, and its scope's marker
        `SetEnv ${sessionEnv.join(' ')}`,
        'LogLevel ERROR',
        '',
      ].join('\n'),
    );
    host.sshd = spawn('nsenter', enter(host, [SSHD, '-D', '-e', '-f', config]), { stdio: ['ignore', 'ignore', 'pipe'] });
    host.sshd.stderr?.resume();
  }
  const sshConfig = path.join(dir, 'ssh_config');
  writeFileSync(
    sshConfig,
    Object.values(hosts)
      .map((h) =>
        [
          `Host ${h.name}`,
          `  HostName ${h.address}`,
          `  Port ${SSH_PORT}`,
          `  User ${user}`,
          `  IdentityFile ${path.join(dir, 'id_ed25519')}`,
          '  IdentitiesOnly yes',
          `  UserKnownHostsFile ${path.join(dir, 'known_hosts')}`,
          '  GlobalKnownHostsFile /dev/null',
          '  StrictHostKeyChecking yes',
          '',
        ].join('\n'),
      )
      .join('\n'),
  );
  chmodSync(sshConfig, 0o600);
  // ready when each host's sshd listens
  for (const host of Object.values(hosts)) {
    const deadline = Date.now() + 10_000;
    while (!runIn(host, ['ss', '-ltnH']).stdout.includes(`${host.address}:${SSH_PORT}`)) {
      if (Date.now() > deadline) throw new Error(`sshd on ${host.name} did not listen in 10 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const processesIn = (host: TestHost) => {
    const found: Array<{ pid: number; cmdline: string }> = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const pid = Number(name);
      try {
        if (readlinkSync(`/proc/${name}/ns/net`) !== host.netns) continue;
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        if (/\) [ZX] /.test(stat)) continue;
        const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
        if (pid === host.holder.pid || cmdline.startsWith(`${SSHD} -D`) || cmdline.startsWith('sshd: ')) continue;
        found.push({ pid, cmdline });
      } catch {
        // gone while read
      }
    }
    return found;
  };
  return {
    client,
    hosts,
    sshConfig,
    dir,
    run: runIn,
    enter,
    processesIn,
    listeners: (host) =>
      runIn(host, ['ss', '-ltnH'])
        .stdout.split('\n')
        .map((line) => line.trim().split(/\s+/)[3])
        .filter((local): local is string => local !== undefined && local !== ''),
  };
}
