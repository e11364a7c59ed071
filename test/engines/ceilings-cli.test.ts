import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

describe("each engine's ceiling per client core", () => {
  it('is in bench list and bench doctor from the last selfbench on this machine, and says how to measure it otherwise', async () => {
    const cache = testTempDir('ceilings');
    const none = await runCli(['list'], { env: { XDG_CACHE_HOME: cache } });
    expect(none.stdout).toMatch(/^autocannon .*not measured here \(bench selfbench\)/m);
    mkdirSync(path.join(cache, 'bench', 'selfbench'), { recursive: true });
    const saved = {
      measuredAt: '2026-11-23T21:40:00.000Z',
      hostname: os.hostname(),
      cpuModel: 'test',
      cpus: 2,
      setting: '-c 50',
      ceilings: [
        { engine: 'autocannon', threads: 1, target: 'nginx-static', rpsPerClientCpuSecond: 70_000, rps: 60_000 },
        { engine: 'autocannon', threads: 2, target: 'nginx-static', rpsPerClientCpuSecond: 68_000, rps: 61_000 },
      ],
    };
    writeFileSync(path.join(cache, 'bench', 'selfbench', 'last-selfbench.json'), JSON.stringify(saved));
    const list = await runCli(['list'], { env: { XDG_CACHE_HOME: cache } });
    expect(list.stdout).toMatch(/^autocannon .*70,000 rps per client CPU-second, 2 threads 68,000 \(selfbench 2026-11-23, nginx-static\)/m);
    const doctor = await runCli(['doctor'], { env: { XDG_CACHE_HOME: cache } });
    expect(doctor.stdout).toMatch(/engine +autocannon .*ceiling per client core: 70,000 rps per client CPU-second/);
  }, 60_000);
});
