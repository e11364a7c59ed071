import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import mysql from 'mysql2/promise';
import { httpGet } from '@bench/core';
import { testTempDir } from '../support/temp-dir.js';
import { runCli, waitForText } from '../support/cli.js';
import { benchTempDirs, newTempDirs } from '../support/leaks.js';
import { leftoverServers, serverProcesses } from '../support/processes.js';

const tmp = testTempDir('lifecycle');

describe('bench serve', () => {
  it('prints the URL, serves the scenario, and stops cleanly on SIGINT', async () => {
    const before = serverProcesses();
    let url = '';
    const run = await runCli(['serve', 'node-cluster', 'hello', '--workers', '2'], {
      onSpawn: (child, output) => {
        void (async () => {
          await waitForText(output, /^http:\/\/127\.0\.0\.1:\d+\/\s*$/m);
          url = /^(http:\/\/127\.0\.0\.1:\d+\/)\s*$/m.exec(output())?.[1] ?? '';
          const answer = await httpGet(url);
          if (answer.body.toString() === 'Hello World') child.kill('SIGINT');
        })();
      },
    });
    expect(url).not.toBe('');
    expect(run.code).toBe(0);
    expect(await leftoverServers(before)).toEqual([]);
  });

  it("prints the services it started with an address a client can use: TechEmpower's tables are in MariaDB", async () => {
    let tables: unknown;
    const run = await runCli(['serve', 'node', 'tfb-fortunes', '--tfb-burst', '4'], {
      onSpawn: (child, output) => {
        void (async () => {
          await waitForText(output, /^bench: MariaDB at mysql:\/\/\S+$/m);
          const address = /^bench: MariaDB at (mysql:\/\/\S+)$/m.exec(output())?.[1] ?? '';
          const connection = await mysql.createConnection(address);
          const [rows] = await connection.query(
            'SELECT (SELECT COUNT(*) FROM World) AS world, (SELECT COUNT(*) FROM World WHERE randomNumber BETWEEN 1 AND 10000) AS numbers, (SELECT COUNT(*) FROM Fortune) AS fortunes',
          );
          tables = (rows as unknown[])[0];
          await connection.end();
          child.kill('SIGINT');
        })();
      },
    });
    expect(run.stderr).toMatch(/^bench: MariaDB at mysql:\/\/bench:[^@]+@127\.0\.0\.1:\d+\/bench$/m);
    expect(tables).toEqual({ world: 10_000, numbers: 10_000, fortunes: 12 });
    expect(run.code).toBe(0);
  });
});

describe('interrupting bench run', () => {
  it('keeps every finished cell and leaves nothing running', async () => {
    const out = path.join(tmp, 'interrupted.json');
    const before = serverProcesses();
    const run = await runCli(
      // held at a rate (wire's open loop): the cells need their second, not the CPU a closed loop would take
      ['run', 'hello', '-c', '2,3,4', '-d', '1', '--rate', '300', '--warmup', '0', '-t', 'node', '--reporter', 'json', '--out', out],
      {
        onSpawn: (child, output) => {
          // after the first cell has finished, interrupt during the second
          void waitForText(output, /hello node c=2: /).then(() => child.kill('SIGINT'));
        },
      },
    );
    expect(run.code).toBe(130);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    expect(doc.complete).toBe(false);
    expect(doc.results.length).toBeGreaterThanOrEqual(1);
    expect(doc.results[0].concurrency).toBe(2);
    expect(await leftoverServers(before)).toEqual([]);
  });

  it("over TLS, leaves none of the run's CA and keys behind", async () => {
    const dirsBefore = benchTempDirs();
    const run = await runCli(['run', 'hello', '-c', '2', '-d', '5', '--warmup', '0', '-t', 'node', '--protocol', 'https'], {
      onSpawn: (child, output) => {
        void waitForText(output, /\[1\/1\] hello node c=2/).then(() => child.kill('SIGINT'));
      },
    });
    expect(run.code).toBe(130);
    expect(await newTempDirs(dirsBefore)).toEqual([]);
  });
});
