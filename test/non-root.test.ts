import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { builtinTargets } from '@bench/targets';
import { cliPath, runCli } from './support/cli.js';
import { leftoverServers, serverProcesses } from './support/processes.js';

// bench run by an ordinary user: no account switching, MariaDB owned through that user's socket
// account, nginx and Apache without `user` directives. CI runs as root, so the test drops to nobody.
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
const readableByNobody = !asRoot || spawnSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', 'test', '-r', cliPath]).status === 0;

describe('bench as a normal user', () => {
  it.skipIf(!readableByNobody)(
    'verifies every target on hello and db (skipped only when this checkout cannot be read by an unprivileged account)',
    async () => {
      const before = serverProcesses();
      const run = await runCli(['verify', 'hello,db,file', '--jobs', '2'], { timeoutMs: 300_000, cwd: '/tmp', env: { HOME: '/tmp' }, ...(asRoot ? { asUid: NOBODY } : {}) });
      expect(run.stdout.split('\n').filter((line) => line.includes('FAIL'))).toEqual([]);
      expect(run.code).toBe(0);
      for (const target of builtinTargets) expect(run.stdout).toMatch(new RegExp(`^${target.name} +(ok|-) `, 'm'));
      expect(await leftoverServers(before)).toEqual([]);
    },
  );
});
