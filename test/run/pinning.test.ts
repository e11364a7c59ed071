import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readProcessTable } from '@bench/core';
import { runCli, waitForText } from '../support/cli.js';

const allowed = (pid: number) => /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];

/** Every live descendant of `root`, with the CPUs it may run on. */
function descendantsWithCpus(root: number): Array<{ pid: number; comm: string; cpus: string | undefined }> {
  const table = readProcessTable();
  const found = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of table)
      if (found.has(p.ppid) && !found.has(p.pid)) {
        found.add(p.pid);
        grew = true;
      }
  }
  return table.filter((p) => found.has(p.pid) && p.pid !== root).map((p) => ({ pid: p.pid, comm: p.comm, cpus: allowed(p.pid) }));
}

describe('--cpus server=0,client=1', () => {
  it.each([
    [
      'wrk',
      (runner: number, seen: ReturnType<typeof descendantsWithCpus>) =>
        seen.find((p) => p.comm === 'wrk')?.cpus ?? `no wrk among ${seen.map((p) => p.comm).join(',')} (runner ${runner})`,
    ],
    ['autocannon', (runner: number) => allowed(runner)],
  ] as const)(
    'pins the stack and its services to CPU 0 and the generator (%s) to CPU 1, as /proc/PID/status shows',
    async (engine, clientCpus) => {
      let server: Array<{ comm: string; cpus: string | undefined }> = [];
      let client: string | undefined;
      const run = await runCli(
        ['run', 'redis-get', '-t', 'php-fpm', '-c', '4', '-d', '3', '-w', '0', '--engine', engine, '--cpus', 'server=0,client=1'],
        {
          onSpawn: (child, output) => {
            void waitForText(output, /\[1\/1\] redis-get php-fpm c=4 \.\.\./).then(async () => {
              await new Promise((resolve) => setTimeout(resolve, 1000));
              const seen = descendantsWithCpus(child.pid ?? -1);
              server = seen.filter((p) => /^(nginx|php-fpm|redis-server)/.test(p.comm));
              client = clientCpus(child.pid ?? -1, seen);
            });
          },
        },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(new Set(server.map((p) => p.comm.replace(/\d.*$/, '')))).toEqual(new Set(['nginx', 'php-fpm', 'redis-server']));
      expect(server.every((p) => p.cpus === '0')).toBe(true);
      expect(client).toBe('1');
      const result = JSON.parse(
        (
          await runCli([
            'run',
            'hello',
            '-t',
            'node',
            '-c',
            '2',
            '-n',
            '100',
            '-w',
            '0',
            '--engine',
            engine,
            '--cpus',
            'server=0,client=1',
            '--reporter',
            'json',
          ])
        ).stdout,
      );
      expect(result.results[0].cpus).toEqual({ server: '0', client: '1' });
    },
  );
});
