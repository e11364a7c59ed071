import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchTempDirs, newTempDirs } from '../support/leaks.js';
import { testTempDir } from '../support/temp-dir.js';
import { runCli, waitForText } from '../support/cli.js';
import { leftoverServers, serverProcesses } from '../support/processes.js';

const tmp = testTempDir('hygiene');

describe('process hygiene', () => {
  it('SIGTERM during a run with Apache and MariaDB stops every process group, keeps finished cells, removes temp dirs', async () => {
    const out = path.join(tmp, 'term.json');
    const before = serverProcesses();
    const dirsBefore = benchTempDirs();
    const run = await runCli(['run', 'db', '-t', 'php-mod', '-c', '2,4', '-d', '1', '--warmup', '0', '--reporter', 'json', '--out', out], {
      onSpawn: (child, output) => void waitForText(output, /db php-mod c=2: /).then(() => child.kill('SIGTERM')),
    });
    expect(run.code).toBe(130);
    expect(JSON.parse(readFileSync(out, 'utf8')).results[0]).toMatchObject({ target: 'php-mod', concurrency: 2, status: 'ok' });
    expect(await leftoverServers(before)).toEqual([]);
    expect(await newTempDirs(dirsBefore)).toEqual([]);
    // and the kept file renders through any reporter
    const report = await runCli(['report', out, '--reporter', 'markdown']);
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(/\| php-mod \| 2 \|/);
    expect(report.stdout).toMatch(/The run did not complete/);
  });

  it('an uncaught error in the runner (a reporter throwing from a timer) still stops every server', async () => {
    const reporter = path.join(tmp, 'time-bomb.mjs');
    writeFileSync(reporter, "export default { onRunStart() { setTimeout(() => { throw new Error('time bomb'); }, 1500); } };\n");
    const before = serverProcesses();
    const run = await runCli([
      'run',
      'hello',
      '-t',
      'node-cluster',
      '-c',
      '2',
      '-d',
      '5',
      '--rate',
      '200',
      '--warmup',
      '0',
      '--reporter',
      reporter,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/internal error: .*time bomb/);
    expect(await leftoverServers(before)).toEqual([]);
  });
});

// /proc/net/tcp lists listening sockets (state 0A) with their local address in hex; 0100007F is 127.0.0.1.
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((f) => f[3] === '0A' && f[1]?.endsWith(`:${hexPort}`))
      .map((f) => f[1]?.split(':')[0] ?? ''),
  );
}

describe('security', () => {
  it('targets and services listen on 127.0.0.1 only, and every target stops on SIGTERM', async () => {
    const { builtinTargets } = await import('@bench/targets');
    const { createServiceManager } = await import('@bench/runner');
    const { builtinScenarios } = await import('@bench/runner');
    const scenarios = new Map(builtinScenarios().map((s) => [s.name, s]));
    const services = createServiceManager({});
    // a stack that ignores SIGTERM is killed after bench's 5 s grace: every stop must end well before it
    const slowStops: string[] = [];
    try {
      for (const scenarioName of ['redis-get', 'memcache-get', 'db']) {
        const endpoints = await services.endpointsFor(scenarios.get(scenarioName)!);
        for (const endpoint of Object.values(endpoints)) expect(listeningAddresses(endpoint.port)).toEqual(['0100007F']);
      }
      for (const target of builtinTargets) {
        const hello = scenarios.get('hello')!;
        const scenario = target.supports(hello).ok ? hello : scenarios.get('file')!;
        const running = await target.start(scenario, { services: {}, workers: 2 });
        try {
          expect({ target: target.name, addresses: listeningAddresses(Number(new URL(running.url).port)) }).toEqual({
            target: target.name,
            addresses: expect.arrayContaining(['0100007F']),
          });
          expect(listeningAddresses(Number(new URL(running.url).port)).every((a) => a === '0100007F')).toBe(true);
        } finally {
          const stopping = Date.now();
          await running.stop();
          if (Date.now() - stopping >= 4500) slowStops.push(`${target.name}: ${Date.now() - stopping} ms`);
        }
      }
      expect(slowStops).toEqual([]);
    } finally {
      await services.stopAll();
    }
  });

  it('private directories are 0700', async () => {
    const { makePrivateDir, removeDir } = await import('@bench/core');
    const { statSync } = await import('node:fs');
    const dir = makePrivateDir('mode-check');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    removeDir(dir);
  });
});
