import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinTargets } from '@bench/targets';
import { cliPath, repoRoot, runCli } from '../support/cli.js';
import { leftoverServers, serverProcesses } from '../support/processes.js';
import { testTempDir } from '../support/temp-dir.js';

// bench run by an ordinary user: no account switching, MariaDB owned through that user's socket
// account, nginx and Apache without `user` directives. CI runs as root, so the test drops to nobody.
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
const nobodyCanRead = (file: string) =>
  spawnSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', 'test', '-r', file]).status === 0;

/**
 * The bench CLI nobody runs: this checkout's, or, when nobody cannot reach it (a checkout in a 0700
 * directory, as any under /root), the same files copied to a place nobody can read.
 */
function cliNobodyCanRun(): string {
  if (!asRoot || nobodyCanRead(cliPath)) return cliPath;
  const home = testTempDir('readable-checkout');
  const copy = path.join(home, 'checkout');
  cpSync(repoRoot, copy, { recursive: true, verbatimSymlinks: true, filter: (source) => path.basename(source) !== '.git' });
  for (const dir of [home, copy]) chmodSync(dir, 0o755);
  const chmod = spawnSync('chmod', ['-R', 'a+rX', copy], { encoding: 'utf8' });
  if (chmod.status !== 0) throw new Error(`chmod -R a+rX ${copy}: ${chmod.stderr}`);
  return path.join(copy, path.relative(repoRoot, cliPath));
}

/**
 * The Node nobody runs: this one, or a copy of it where nobody can read it (a Node unpacked under /root, as CI's
 * Node 24 is): bench starts the Node targets with the Node it runs on, which nobody must be able to run again.
 */
function nodeNobodyCanRun(): string {
  if (!asRoot || nobodyCanRead(process.execPath)) return process.execPath;
  const home = testTempDir('readable-node');
  const copy = path.join(home, 'bin', 'node');
  mkdirSync(path.dirname(copy), { recursive: true });
  copyFileSync(process.execPath, copy);
  for (const dir of [home, path.dirname(copy)]) chmodSync(dir, 0o755);
  chmodSync(copy, 0o755);
  return copy;
}

describe('bench as a normal user', () => {
  it('verifies every target on hello, db and file as an unprivileged account', async () => {
    const cli = cliNobodyCanRun();
    const before = serverProcesses();
    const run = await runCli(['verify', 'hello,db,file', '--jobs', '2'], {
      cli,
      node: nodeNobodyCanRun(),
      timeoutMs: 300_000,
      cwd: '/tmp',
      env: { HOME: '/tmp' },
      ...(asRoot ? { asUid: NOBODY } : {}),
    });
    expect(run.stdout.split('\n').filter((line) => line.includes('FAIL'))).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    for (const target of builtinTargets) expect(run.stdout).toMatch(new RegExp(`^${target.name} +(ok|-) `, 'm'));
    expect(await leftoverServers(before)).toEqual([]);
  });
});
