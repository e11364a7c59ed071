import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePrivateDir, removeDir, runGroupToCompletion } from '@bench/core';
import {
  builtinScenariosDir,
  httpsClients,
  HTTPS_CLIENT_PAGE,
  makeAuthority,
  makeTlsMaterial,
  measureHttpsClients,
  startTlsServer,
} from '@bench/runner';
import { runCli } from '../support/cli.js';
import { watchDescendants } from '../support/descendants.js';
import { benchTempDirs, newTempDirs } from '../support/leaks.js';

const sources = path.join(builtinScenariosDir(), 'https-client');

describe("article 002's HTTPS clients", () => {
  it('every client is installed (CI installs them all)', () => {
    expect(httpsClients.map((c) => [c.name, c.available().ok])).toEqual([
      ['go', true],
      ['java', true],
      ['php', true],
      ['node', true],
      ['perl', true],
    ]);
  });

  it("each fetches the page with the run's own CA, prints it n times (checked), and is timed as a whole process", async () => {
    const before = benchTempDirs();
    const measurements = await measureHttpsClients({ sourcesDir: sources, ns: [2], runs: 2 });
    expect(measurements.map((m) => m.client)).toEqual(['go', 'java', 'php', 'node', 'perl']);
    for (const m of measurements) {
      expect(m.n).toBe(2);
      expect(m.seconds).toHaveLength(2);
      expect(m.seconds.every((s) => s > 0 && s < 30)).toBe(true);
    }
    expect(await newTempDirs(before)).toEqual([]);
  });

  it.each(httpsClients.map((c) => [c.name, c] as const))(
    '%s refuses a server its CA did not sign: certificate checking is on',
    async (_name, client) => {
      const dir = makePrivateDir('https-check');
      try {
        const tls = await makeTlsMaterial(dir);
        const stranger = await makeAuthority(dir, 'stranger');
        const server = await startTlsServer(tls, dir);
        try {
          const command = await client.prepare(sources, dir);
          const trusted = await runGroupToCompletion(command[0] ?? '', [...command.slice(1), server.url, '1', tls.caFile], {
            name: 'client',
            cwd: dir,
          });
          expect(trusted).toBe(`${HTTPS_CLIENT_PAGE}\n`);
          const refused = runGroupToCompletion(command[0] ?? '', [...command.slice(1), server.url, '1', stranger.certFile], {
            name: 'client',
            cwd: dir,
          });
          await expect(refused).rejects.toThrow(/exited with code [1-9]/);
        } finally {
          await server.stop();
        }
      } finally {
        removeDir(dir);
      }
    },
  );

  it('bench suite https-clients-2015 prints the M1..FzvM table for every client, and leaves nothing running', async () => {
    let watch: ReturnType<typeof watchDescendants> | undefined;
    const run = await runCli(['suite', 'https-clients-2015', '--scale', '0.1', '--repeat', '2'], {
      onSpawn: (child) => (watch = watchDescendants(child.pid ?? -1)),
    });
    watch?.stop();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^\| client \| today \| M1 \| M2 \| M3 \| M4 \| M5 \| MW \| AzsPS \| AzsPP \| FzvM \|$/m);
    expect(run.stdout).toMatch(/^\| Go \| go [\d.]+ \| 0\.987 \/ [\d.]+ \|/m);
    expect(run.stdout).toMatch(/^\| Node \(today\) \| node [\d.]+ \| [\d.]+ \|/m);
    expect(run.stdout).toMatch(/^- Java: 1\.48 \/ [\d.]+$/m);
    expect(await watch?.survivors()).toEqual([]);
  });
});
