import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { cliPath, repoRoot, runProcess } from './cli.js';
import { testTempDir } from './temp-dir.js';

// examples/ci/compare-base-head.sh, as the workflow runs it, on three checkouts of examples/app: the base,
// an identical copy, and a head whose list route waits 50 ms per request (its SLOW_MS default). 50 ms, not a few: with
// other load tests on this 2-core machine (load average above 10) the base fell to 460 rps, a server starved of CPU
// hides a short wait (a 20 ms head measured 411 rps against it), and a 10 ms head was left undecided within the cap;
// 50 ms caps the head at 10 connections / 50 ms = 200 rps whatever the machine does.
const home = testTempDir('ci-recipe');
const script = path.join(repoRoot, 'examples', 'ci', 'compare-base-head.sh');

/** A checkout of examples/app; a head waits `slowMs` per list request (SLOW_MS) or makes `slowWork` more passes in its checksum (SLOW_WORK). */
export function checkout(name: string, slowMs = 0, slowWork = 0): string {
  const dir = path.join(home, name);
  cpSync(path.join(repoRoot, 'examples', 'app'), dir, { recursive: true, filter: (source) => !source.includes('node_modules') });
  // the app's bench.config imports @bench/runner: this checkout's packages, as an app's npm ci would install them
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  for (const [variable, value] of [
    ['SLOW_MS', slowMs],
    ['SLOW_WORK', slowWork],
  ] as const) {
    if (value === 0) continue;
    const server = path.join(dir, 'server.mjs');
    const slowed = readFileSync(server, 'utf8').replace(`process.env.${variable} ?? 0`, `process.env.${variable} ?? ${value}`);
    expect(slowed).toContain(`${variable} ?? ${value}`);
    writeFileSync(server, slowed);
  }
  return dir;
}

/**
 * The recipe with a short load shape, capped in rounds and in time (the time cap applies after the first 5 rounds, the
 * fewest a verdict needs), at the script's default noise threshold (5%) unless `caps.noise` sets BENCH_NOISE.
 */
export async function recipe(
  base: string,
  head: string,
  out: string,
  caps: { maxTime: number; maxRounds: number; noise?: string },
  moreRunArgs = '',
) {
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
      // a fixed half-second warm-up: a verdict is the test here, not how long each server takes to settle
      BENCH_RUN_ARGS: `-w 0.5 --warmup-max 0.5 ${moreRunArgs}`.trim(),
      BENCH_MAX_TIME: String(caps.maxTime),
      BENCH_MAX_ROUNDS: String(caps.maxRounds),
      ...(caps.noise ? { BENCH_NOISE: caps.noise } : {}),
      BENCH_OUT: path.join(home, out),
      GITHUB_STEP_SUMMARY: summary,
    },
  });
  const doc = runDocumentSchema.parse(JSON.parse(readFileSync(path.join(home, out, 'results.json'), 'utf8')));
  return { ...run, doc, outDir: path.join(home, out), summary: readFileSync(summary, 'utf8') };
}

/** The recipe's verdict on rps, from its comparison table. */
export const rpsRow = /^\| list-items \| app-head vs app-base \| 10 \| rps \| .* \| ([a-z ]+) \|$/m;
