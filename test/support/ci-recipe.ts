import { cpSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { cliPath, repoRoot, runProcess } from './cli.js';

// examples/ci/compare-base-head.sh, as the workflow runs it, on three checkouts of examples/app: the base, an identical
// copy, and a head whose list route waits 50 ms per request (its SLOW_MS default): 10 connections / 50 ms cap the head
// at 200 rps whatever the machine does, where a server starved of CPU by other tests hides a shorter wait.
// A home for each file's checkouts, in that file's scope (test-scope.ts removes it with the scope): a worker keeps this
// module from one file to the next, so a home made when it was first imported would outlive that file's scope
const homes = new Map<string, string>();
function home(): string {
  const scope = process.env.BENCH_TEST_SCOPE ?? '';
  let dir = homes.get(scope);
  if (!dir) homes.set(scope, (dir = mkdtempSync(path.join(os.tmpdir(), 'benchtest-ci-recipe-'))));
  return dir;
}
const script = path.join(repoRoot, 'examples', 'ci', 'compare-base-head.sh');

/** How a checkout of examples/app differs from the app: its knobs' defaults, and lines an edit added above checksum. */
export interface CheckoutChanges {
  /** SLOW_MS: the list route waits this long per request. */
  readonly slowMs?: number;
  /** SLOW_WORK: checksum makes this many more passes over the page. */
  readonly slowWork?: number;
  /** Comment lines added above checksum (it moves down by as many lines, as an edit above it would move it). */
  readonly linesAboveChecksum?: number;
}

/** A checkout of examples/app, changed as asked. */
export function checkout(name: string, changes: CheckoutChanges = {}): string {
  const dir = path.join(home(), name);
  cpSync(path.join(repoRoot, 'examples', 'app'), dir, { recursive: true, filter: (source) => !source.includes('node_modules') });
  // the app's bench.config imports @bench/runner: this checkout's packages, as an app's npm ci would install them
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  const server = path.join(dir, 'server.mjs');
  let text = readFileSync(server, 'utf8');
  for (const [variable, value] of [
    ['SLOW_MS', changes.slowMs ?? 0],
    ['SLOW_WORK', changes.slowWork ?? 0],
  ] as const) {
    if (value === 0) continue;
    text = text.replace(`process.env.${variable} ?? 0`, `process.env.${variable} ?? ${value}`);
    expect(text).toContain(`${variable} ?? ${value}`);
  }
  const lines = changes.linesAboveChecksum ?? 0;
  if (lines > 0) {
    const added = Array.from({ length: lines }, (_, i) => `// line ${i + 1} of an edit above checksum\n`).join('');
    text = text.replace('\nfunction checksum(', `\n${added}function checksum(`);
    expect(text).toContain(added);
  }
  writeFileSync(server, text);
  return dir;
}

/** The line (1-based) a checkout's checksum starts on. */
export const checksumLine = (dir: string): number =>
  readFileSync(path.join(dir, 'server.mjs'), 'utf8')
    .split('\n')
    .findIndex((line) => line.startsWith('function checksum(')) + 1;

/**
 * The recipe with a short load shape (1 s runs unless `caps.seconds` says), capped in rounds and in time (the time cap
 * applies after the first 5 rounds, the fewest a verdict needs), at the script's default noise threshold (5%) unless
 * `caps.noise` sets BENCH_NOISE.
 */
export async function recipe(
  base: string,
  head: string,
  out: string,
  caps: { maxTime: number; maxRounds: number; noise?: string; seconds?: number },
  moreRunArgs = '',
) {
  const dir = home();
  const summary = path.join(dir, `${out}-summary.md`);
  writeFileSync(summary, '');
  const run = await runProcess('bash', [script, base, head], {
    cwd: dir,
    // generous: the script's own cap ends the rounds; this only bounds a hung run
    timeoutMs: 170_000,
    env: {
      BENCH: `${process.execPath} ${cliPath}`,
      BENCH_SCENARIOS: 'list-items',
      BENCH_DURATION: String(caps.seconds ?? 1),
      // a fixed half-second warm-up: a verdict is the test here, not how long each server takes to settle
      BENCH_RUN_ARGS: `-w 0.5 --warmup-max 0.5 ${moreRunArgs}`.trim(),
      BENCH_MAX_TIME: String(caps.maxTime),
      BENCH_MAX_ROUNDS: String(caps.maxRounds),
      ...(caps.noise ? { BENCH_NOISE: caps.noise } : {}),
      BENCH_OUT: path.join(dir, out),
      GITHUB_STEP_SUMMARY: summary,
    },
  });
  const doc = runDocumentSchema.parse(JSON.parse(readFileSync(path.join(dir, out, 'results.json'), 'utf8')));
  return { ...run, doc, outDir: path.join(dir, out), summary: readFileSync(summary, 'utf8') };
}

/** The recipe's verdict on rps, from its comparison table. */
export const rpsRow = /^\| list-items \| app-head vs app-base \| 10 \| rps \| .* \| ([a-z ]+) \|$/m;
