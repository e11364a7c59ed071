import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { runCli } from './cli.js';
import { watchDescendants } from './descendants.js';
import { testTempDir } from './temp-dir.js';

// Every suite at a tiny scale on the real stacks: the article's rows and columns, its figures
// beside ours, ratios from the reference row, and the document re-rendered by `bench report`.
/** Runs one suite at a tiny scale on the real stacks: its tables on stdout, the document written and rendered again by `bench report`. */
export async function runSuite(name: string, scale: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const out = path.join(testTempDir('suites'), `${name}.json`);
  let watch: ReturnType<typeof watchDescendants> | undefined;
  const run = await runCli(['suite', name, '--scale', scale, ...extra, '--reporter', 'suite', '--reporter', 'json', '--out', out], {
    timeoutMs: 600_000,
    env,
    onSpawn: (child) => (watch = watchDescendants(child.pid ?? -1)),
  });
  expect(run.code, run.stderr).toBe(0);
  await new Promise((resolve) => setTimeout(resolve, 500));
  watch?.stop();
  expect(await watch?.survivors()).toEqual([]);
  const doc = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
  expect(doc.suite).toMatchObject({ name, scale: Number(scale) });
  const report = await runCli(['report', out]);
  expect(report.stdout).toBe(run.stdout.slice(0, report.stdout.length));
  return { text: run.stdout, doc };
}

/** The table row that starts with `label`. */
export const row = (text: string, label: string) => text.split('\n').find((l) => l.startsWith(`| ${label} |`)) ?? `(no row ${label})`;
