import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readProcessTable, type LoadEngine } from '@bench/core';
import { builtinEngines, builtinScenarios } from '@bench/runner';
import { serviceDefinitions } from '@bench/services';
import { builtinTargets } from '@bench/targets';
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

// The stack (php-fpm behind nginx), its service (Redis) and every engine of the registry: an engine that launches a
// program is that program (its processNames), an in-process one is the runner itself.
const stack = builtinTargets.find((t) => t.name === 'php-fpm')!;
const serverNames = [...(stack.processNames ?? []), serviceDefinitions.redis.binary];
const hello = builtinScenarios().find((s) => s.name === 'hello')!;
const closedLoop = { connections: 1, durationSeconds: 1.5, keepAlive: true, timeoutSeconds: 10 };
// an engine that holds only an arrival rate (the open loop) is given one
const engineArgs = (engine: LoadEngine) =>
  engine.supports(closedLoop, hello.request, hello.expect.body).ok ? ['--engine', engine.name] : ['--engine', engine.name, '--rate', '200'];

function clientCpus(engine: LoadEngine, runner: number, seen: ReturnType<typeof descendantsWithCpus>): string | undefined {
  if (!engine.processNames?.length) return allowed(runner);
  const tool = seen.find((p) => engine.processNames!.includes(p.comm));
  return tool?.cpus ?? `no ${engine.processNames.join('/')} among ${seen.map((p) => p.comm).join(',')} (runner ${runner})`;
}

describe('--cpus server=0,client=1', () => {
  it.each(builtinEngines.map((engine) => [engine.name, engine] as const))(
    'pins the stack and its services to CPU 0 and the generator (%s) to CPU 1, as /proc/PID/status shows',
    async (_name, engine) => {
      let server: Array<{ comm: string; cpus: string | undefined }> = [];
      let client: string | undefined;
      const run = await runCli(
        [
          'run',
          'redis-get',
          '-t',
          stack.name,
          // one connection for a second and a half: the processes are looked at 0.7 s in, and their load needs no more
          '-c',
          '1',
          '-d',
          '1.5',
          '-w',
          '0',
          ...engineArgs(engine),
          '--cpus',
          'server=0,client=1',
          '--reporter',
          'json',
        ],
        {
          onSpawn: (child, output) => {
            void waitForText(output, /\[1\/1\] redis-get php-fpm c=1 \.\.\./).then(async () => {
              await new Promise((resolve) => setTimeout(resolve, 700));
              const seen = descendantsWithCpus(child.pid ?? -1);
              server = seen.filter((p) => serverNames.some((name) => p.comm.startsWith(name)));
              client = clientCpus(engine, child.pid ?? -1, seen);
            });
          },
        },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(new Set(server.map((p) => serverNames.find((name) => p.comm.startsWith(name))))).toEqual(new Set(serverNames));
      expect(server.every((p) => p.cpus === '0')).toBe(true);
      expect(client).toBe('1');
      // and the result records it
      const result = JSON.parse(run.stdout) as { results: Array<{ cpus?: unknown }> };
      expect(result.results[0]?.cpus).toEqual({ server: '0', client: '1' });
    },
  );
});
