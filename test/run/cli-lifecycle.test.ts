import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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
});

describe('interrupting bench run', () => {
  it('keeps every finished cell and leaves nothing running', async () => {
    const out = path.join(tmp, 'interrupted.json');
    const before = serverProcesses();
    const run = await runCli(
      ['run', 'hello', '-c', '2,3,4', '-d', '1', '--warmup', '0', '-t', 'node', '--reporter', 'json', '--out', out],
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
