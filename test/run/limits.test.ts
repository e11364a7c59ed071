import { describe, expect, it } from 'vitest';
import type { RunDocument, RunningTarget } from '@bench/core';
import { builtinScenarios, resolveRunOptions, runBench, type RunOptionInput } from '@bench/runner';
import { builtinTargets } from '@bench/targets';
import { runCli } from '../support/cli.js';
import { soakFixture } from '../support/soak-fixture.js';

// Every cell names what bounded it. The fixture server waits 50 ms a request, or burns 1 ms of CPU on each; nginx
// serves a static file faster than autocannon can ask. This file runs alone (vitest.config.ts): what bounds a cell
// is the machine's business, and another file's load would change it.
const scenarios = builtinScenarios();
const hello = scenarios.find((s) => s.name === 'hello')!;

async function limitOf(target: ReturnType<typeof soakFixture>, input: RunOptionInput) {
  const options = resolveRunOptions({ scenarios: ['hello'] }, { durationSeconds: 1, warmupSeconds: 0, timeoutSeconds: 5, ...input });
  const doc = await runBench({ ...options, targets: [target.name] }, { targets: [target], scenarios, reporters: [] });
  const [cell] = doc.results;
  expect(cell?.status, cell?.error).toBe('ok');
  return cell!.limit;
}

describe('what bounded a cell', () => {
  it('a server that waits 50 ms a request at -c 4: waiting, by Little’s law, the machine idle', async () => {
    const limit = await limitOf(soakFixture('waiting', { DELAY_MS: '50' }), { concurrency: [4], engine: 'wire' });
    expect(limit?.by).toBe('waiting');
    // a mean of exactly 51.0 ms reads "51 ms" (a clean-clone run saw it); 4 / 50.2 ms rounds up to 80 rps
    expect(limit?.line).toMatch(/^bounded by waiting: 4 connections x 5\d(\.\d+)? ms = (7\d|80) rps, machine \d+% busy$/);
  });

  it('a server that burns 1 ms of CPU a request: the server’s CPU', async () => {
    const limit = await limitOf(soakFixture('burning', { CPU_MS: '1' }), {
      concurrency: [4],
      engine: 'wire',
      cpus: { server: '0', client: '1' },
    });
    expect(limit?.by).toBe('server');
    expect(limit?.line).toMatch(/^bounded by the server's CPU: server \d+% of one core \(of 1\)/);
  });

  it('autocannon against nginx serving a static file: the load generator', async () => {
    const nginx = builtinTargets.find((t) => t.name === 'nginx-static')!;
    const file = scenarios.find((s) => s.name === 'file')!;
    const options = resolveRunOptions(
      { scenarios: ['file'] },
      { concurrency: [50], durationSeconds: 1, warmupSeconds: 0, engine: 'autocannon', cpus: { server: '0', client: '1' } },
    );
    const doc = await runBench({ ...options, targets: ['nginx-static'] }, { targets: [nginx], scenarios: [file], reporters: [] });
    expect(doc.results[0]?.limit?.by, JSON.stringify(doc.results[0]?.resources)).toBe('generator');
    expect(doc.results[0]?.limit?.line).toMatch(/^bounded by the load generator: autocannon used \d+% of one core \(of 1\)/);
  });

  it('a --url run, where bench sees no server process: from the machine’s CPU', async () => {
    let running: RunningTarget | undefined;
    try {
      running = await soakFixture('elsewhere', { DELAY_MS: '50' }).start(hello, { services: {} });
      const run = await runCli(['run', '--url', `${running.url}/`, '-c', '4', '-d', '1', '-w', '0', '--engine', 'wire', '-r', 'json']);
      expect(run.code, run.stderr).toBe(0);
      const [cell] = (JSON.parse(run.stdout) as RunDocument).results;
      expect(cell?.resources?.server).toBeUndefined();
      expect(cell?.limit?.by).toBe('waiting');
    } finally {
      await running?.stop();
    }
  });
});
