import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, waitForText } from '../support/cli.js';
import { watchDescendants } from '../support/descendants.js';
import { benchTempDirs, newTempDirs } from '../support/leaks.js';
import { testTempDir } from '../support/temp-dir.js';

// A scenario whose Node handler answers the readiness probe at once and every later request after
// 30 s: a run of it sits in verification long enough to be killed there. It needs Redis, so a
// service runs too.
const scenarios = testTempDir('kill-scenarios');
const slow = path.join(scenarios, 'slow-verify');
mkdirSync(slow);
writeFileSync(
  path.join(slow, 'scenario.json'),
  JSON.stringify({
    name: 'slow-verify',
    title: 'answers the first request only',
    from: [],
    description: 'Hello World, slowly after the first request',
    path: '/',
    contentType: 'text/plain',
    body: { text: 'Hello World' },
    kind: 'dynamic',
    services: ['redis'],
  }),
);
writeFileSync(
  path.join(slow, 'node.mjs'),
  `let served = 0;
export default function (app) {
  app.get('/', async (_request, reply) => {
    if (served++ > 0) await new Promise((resolve) => setTimeout(resolve, 30000));
    reply.type('text/plain').send('Hello World');
  });
}
`,
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface KillCase {
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  /** Resolves at the moment to kill, given the output so far and the processes seen. */
  readonly when: (output: () => string, seen: () => string[]) => Promise<void>;
}

async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const cases: Array<[string, KillCase]> = [
  [
    'during service start (MariaDB initialising)',
    {
      args: ['run', 'db', '-t', 'php-mod', '-c', '2', '-d', '5', '--warmup', '0'],
      when: (_output, seen) => until(() => seen().some((name) => /^mariadb/.test(name)), 'a MariaDB process'),
    },
  ],
  [
    'with PostgreSQL serving the stack (its server run as its own user when bench is root)',
    {
      args: ['run', 'tfb-db', '-t', 'node', '--db', 'postgres', '-c', '2', '-d', '5', '--warmup', '0'],
      when: async (output) => {
        await waitForText(output, /verifying node for tfb-db/);
        await sleep(300);
      },
    },
  ],
  [
    'during verification',
    {
      args: ['run', 'slow-verify', '-t', 'node-cluster', '--workers', '2', '-c', '2', '-d', '5', '--warmup', '0'],
      env: { BENCH_SCENARIOS_DIR: scenarios },
      when: async (output) => {
        await waitForText(output, /verifying node-cluster for slow-verify/);
        await sleep(500);
      },
    },
  ],
  [
    "during a run over TLS (the run's CA and keys)",
    {
      args: ['run', 'hello', '-t', 'node', '--protocol', 'h2', '--engine', 'k6', '-c', '2', '-d', '5', '--warmup', '0'],
      when: async (output) => {
        await waitForText(output, /\[1\/1\] hello node c=2 \.\.\./);
        await sleep(1000);
      },
    },
  ],
  [
    'during load (php-fpm and perl-mod with Redis)',
    {
      args: ['run', 'redis-get', '-t', 'php-fpm,perl-mod', '-c', '10', '-d', '3', '--warmup', '0'],
      when: async (output) => {
        // cells run in a random order per round: wait for this one wherever it falls (first or second)
        await waitForText(output, /\[\d\/2\] redis-get php-fpm c=10 \.\.\./);
        await sleep(1500);
      },
    },
  ],
];

// What the watcher did since `since`, from its log: shown when a dir outlives the five seconds.
function watcherLog(since: number): string {
  const file = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'bench', 'watcher', 'watcher.log');
  try {
    const lines = readFileSync(file, 'utf8').split('\n');
    return lines.filter((line) => Date.parse(line.slice(0, 24)) >= since - 1000).join('\n') || 'the watcher logged nothing';
  } catch {
    return 'no watcher log';
  }
}

describe('SIGKILL of the runner', () => {
  it.each(cases)('%s leaves no process and no temp dir of the run 5 s later', async (_name, c) => {
    const dirsBefore = benchTempDirs();
    let watch: ReturnType<typeof watchDescendants> | undefined;
    let killedAt = 0;
    const run = await runCli(c.args, {
      ...(c.env ? { env: c.env } : {}),
      onSpawn: (child, output) => {
        // every 20 ms: a process started just before the kill is seen
        watch = watchDescendants(child.pid ?? -1, 20);
        void c
          .when(output, () => watch?.seen() ?? [])
          .then(() => {
            killedAt = Date.now();
            child.kill('SIGKILL');
          });
      },
    });
    expect(run.signal).toBe('SIGKILL');
    expect(watch?.seen().length).toBeGreaterThan(0);
    // within five seconds of the kill, no grace beyond them: once no process of the run is left, nothing can come back
    const left = () => Math.max(0, killedAt + 5000 - Date.now());
    expect(await watch?.survivors(left())).toEqual([]);
    watch?.stop();
    expect(await newTempDirs(dirsBefore, left()), watcherLog(killedAt)).toEqual([]);
    // and it said what it cleared: the runner's end, then each dir gone
    expect(watcherLog(killedAt)).toMatch(/the runner is gone: \d+ process groups, [1-9]\d* dirs to clear[\s\S]* gone/);
  });
});

describe('the next start of bench', () => {
  it('removes the private dirs of runs whose runner is dead, and keeps those of live ones', async () => {
    const { mkdtempSync, writeFileSync: write, existsSync } = await import('node:fs');
    const os = await import('node:os');
    const { spawnSync } = await import('node:child_process');
    const { processStartTime } = await import('@bench/core');
    // a process that has come and gone: its pid names no live process with that start time
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    const dead = mkdtempSync(path.join(os.tmpdir(), 'bench-stale-'));
    write(path.join(dead, '.bench-owner'), `${gone} 1\n`);
    const live = mkdtempSync(path.join(os.tmpdir(), 'bench-live-'));
    write(path.join(live, '.bench-owner'), `${process.pid} ${processStartTime(process.pid)}\n`);
    const run = await runCli(['list']);
    expect(run.code).toBe(0);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    const { rmSync } = await import('node:fs');
    rmSync(live, { recursive: true, force: true });
  });
});
