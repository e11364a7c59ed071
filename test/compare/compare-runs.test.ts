import { cpSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runProcess } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// Two runs of examples/app compared file against file, as an app repo's CI compares a saved baseline: unlike a paired
// run (ci-recipe.test.ts), each file was measured on its own, so this file runs alone (vitest.config.ts), as such a
// comparison needs a machine doing nothing else.
const app = path.join(testTempDir('compare-runs'), 'app');
cpSync(path.join(repoRoot, 'examples', 'app'), app, { recursive: true, filter: (source) => !source.includes('node_modules') });
// the app's bench.config imports @bench/runner: this checkout's packages, as an app's npm ci would install them
symlinkSync(path.join(repoRoot, 'node_modules'), path.join(app, 'node_modules'));

const bench = (args: readonly string[], env: NodeJS.ProcessEnv = {}) =>
  runProcess('npm', ['run', '--silent', 'bench', '--', ...args], { cwd: app, env, timeoutMs: 180_000 });

describe('bench compare on two results files of an app', () => {
  it('bench compare calls a slowed route regressed (--fail-if exits 1) and two runs of the same code within noise', async () => {
    // pinned, so the server and the load generator each have a core (as the README advises on 2 cores)
    const measure = (out: string, env: NodeJS.ProcessEnv = {}) =>
      bench(
        // a fixed half-second warm-up: each request waits 10 ms (below), so a Node not yet at full speed moves the rate
        // by little (3 s, in which the app's Node settles here, took the file from 24 s to 44 s)
        [
          'list-items',
          '-t',
          'app',
          '-c',
          '4',
          '-d',
          '0.5',
          '--repeat',
          '3',
          '-w',
          '0.5',
          '--warmup-max',
          '0.5',
          '--cpus',
          'server=0,client=1',
          '--reporter',
          'json',
          '--out',
          out,
        ],
        env,
      );
    // Each request waits 10 ms (40 ms slowed), so the app's rate is bounded by waiting, not by CPU: a busy or throttled
    // host moves a CPU-bound rate by a quarter between two files measured a minute apart (seen in CI), a waiting-bound
    // one by a few percent, which leaves the verdicts to bench compare rather than to the host. (A 2 ms wait was not
    // enough: at c=10 the app answered in 4 ms, half of it CPU, and two runs of the same code differed by 11.9% in CI;
    // at c=10 with 10 ms, its core answered 876 rps with about a millisecond of CPU each, and a run beside the idle
    // lanes' starts read 35.7% slower: on 4 connections it keeps its core about a third busy.)
    expect((await measure('a.json', { SLOW_MS: '10' })).code).toBe(0);
    expect((await measure('b.json', { SLOW_MS: '10' })).code).toBe(0);
    const slowed = await measure('slow.json', { SLOW_MS: '40' });
    expect(slowed.code).toBe(0);
    // files measured a minute apart on a shared host: a 10% noise floor, as such a CI would set (the slowed route
    // loses about 70%; two runs of the same code have differed by 3.7% here)
    const compare = (head: string) =>
      runProcess(path.join(app, 'node_modules', '.bin', 'bench'), ['compare', 'a.json', head, '--fail-if', 'rps<-10%', '--noise', '10%'], {
        cwd: app,
      });
    const regression = await compare('slow.json');
    expect(regression.stdout).toMatch(/\| list-items \| app \| 4 \| rps \| .* \| -\d+\.\d% \| .* \| regressed \|/);
    expect(regression.code).toBe(1);
    expect(regression.stderr).toMatch(/beyond --fail-if and the noise \(first: list-items\/app c=4 rps<-10%/);
    const same = await compare('b.json');
    expect(same.stdout, same.stdout).toMatch(/\| list-items \| app \| 4 \| rps \| .* \| within noise \|/);
    expect(same.code, same.stdout).toBe(0);
  });
});
