import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { cliPath, repoRoot, runProcess } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// examples/ci/compare-base-head.sh, as the workflow runs it, on three checkouts of examples/app: the base,
// an identical copy, and a head whose list route waits 50 ms per request (its SLOW_MS default). 50 ms, not a few: with
// other load tests on this 2-core machine (load average above 10) the base fell to 460 rps, a server starved of CPU
// hides a short wait (a 20 ms head measured 411 rps against it), and a 10 ms head was left undecided within the cap;
// 50 ms caps the head at 10 connections / 50 ms = 200 rps whatever the machine does.
const home = testTempDir('ci-recipe');
const script = path.join(repoRoot, 'examples', 'ci', 'compare-base-head.sh');

function checkout(name: string, slowMs = 0): string {
  const dir = path.join(home, name);
  cpSync(path.join(repoRoot, 'examples', 'app'), dir, { recursive: true, filter: (source) => !source.includes('node_modules') });
  // the app's bench.config imports @bench/runner: this checkout's packages, as an app's npm ci would install them
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  if (slowMs > 0) {
    const server = path.join(dir, 'server.mjs');
    const slowed = readFileSync(server, 'utf8').replace('process.env.SLOW_MS ?? 0', `process.env.SLOW_MS ?? ${slowMs}`);
    expect(slowed).toContain(`?? ${slowMs}`);
    writeFileSync(server, slowed);
  }
  return dir;
}

let base = '';
beforeAll(() => {
  base = checkout('base');
});

/** The recipe with a short load shape, capped in rounds and in time (the time cap applies after the first 5 rounds, the fewest a verdict needs). */
async function recipe(head: string, out: string, caps: { maxTime: number; maxRounds: number }) {
  const summary = path.join(home, `${out}-summary.md`);
  writeFileSync(summary, '');
  const run = await runProcess('bash', [script, base, head], {
    cwd: home,
    // generous: the script's own cap ends the rounds; this only bounds a hung run
    timeoutMs: 170_000,
    env: {
      BENCH: `${process.execPath} ${cliPath}`,
      BENCH_SCENARIOS: 'list-items',
      BENCH_DURATION: '1',
      BENCH_RUN_ARGS: '-w 0.5',
      BENCH_MAX_TIME: String(caps.maxTime),
      BENCH_MAX_ROUNDS: String(caps.maxRounds),
      BENCH_OUT: path.join(home, out),
      GITHUB_STEP_SUMMARY: summary,
    },
  });
  const doc = runDocumentSchema.parse(JSON.parse(readFileSync(path.join(home, out, 'results.json'), 'utf8')));
  return { ...run, doc, summary: readFileSync(summary, 'utf8') };
}

const rpsRow = /^\| list-items \| app-head vs app-base \| 10 \| rps \| .* \| ([a-z ]+) \|$/m;

describe('the CI recipe: base and head interleaved in one run, rounds until decided, a gate', () => {
  it('decides that a head slowed by 50 ms per request regressed, within the time cap, and fails the job', async () => {
    const run = await recipe(checkout('slow', 50), 'slow', { maxTime: 30, maxRounds: 6 });
    expect(run.stdout.match(rpsRow)?.[1], run.stdout + run.stderr).toBe('regressed');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/beyond --fail-if and the noise \(first: list-items\/app-head vs app-base c=10 rps<-5%/);
    expect(run.doc.rounds).toMatchObject({ requested: 'auto', stoppedBecause: 'decided' });
    expect(run.doc.rounds!.completed).toBeGreaterThanOrEqual(5);
    expect(run.stderr).toMatch(/bench: \d+ round\(s\); stopped: every comparison decided/);
    // both targets ran in every round, and the seed of their order is recorded
    expect(typeof run.doc.options.seed).toBe('number');
    for (let round = 1; round <= run.doc.rounds!.completed; round++)
      expect(
        run.doc.results
          .filter((r) => r.repeat === round)
          .map((r) => r.target)
          .sort(),
      ).toEqual(['app-base', 'app-head']);
    expect(run.summary).toMatch(/## bench: app, base against head[\s\S]*\| regressed \|/);
    expect(run.stdout).toMatch(/- basis, list-items app-head vs app-base c=10 rps: \d+ round\(s\) paired, median of the per-round ratios/);
  });

  it('never calls an identical head regressed: within noise (exit 0) or, within 5 rounds, undecided (exit 3)', async () => {
    const run = await recipe(checkout('same'), 'same', { maxTime: 20, maxRounds: 5 });
    const verdict = run.stdout.match(rpsRow)?.[1];
    expect(['within noise', 'undecided', 'improved'], run.stdout + run.stderr).toContain(verdict);
    expect(run.code).toBe(verdict === 'undecided' ? 3 : 0);
    if (run.code === 3) expect(run.stderr).toMatch(/undecided, so the gate cannot pass .*--allow-undecided/);
  });
});
