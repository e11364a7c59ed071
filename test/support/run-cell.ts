import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { runDocumentSchema, type CellResult } from '@bench/core';
import { runCli, type CliOptions } from './cli.js';

/** The cells of `bench run ARGS -w 0`, read from its JSON results written to `dir/name.json`; the run must exit 0. */
export async function runCellsJson(dir: string, args: readonly string[], name: string, options: CliOptions = {}): Promise<CellResult[]> {
  const out = path.join(dir, `${name}.json`);
  const run = await runCli([...args, '-w', '0', '-r', 'json', '-o', out], { timeoutMs: 120_000, ...options });
  expect(run.code, run.stderr).toBe(0);
  return runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).results;
}

/** The first cell of `bench run ARGS -w 0` (runCellsJson). */
export async function runCellJson(dir: string, args: readonly string[], name: string): Promise<CellResult> {
  const [cell] = await runCellsJson(dir, args, name);
  return cell!;
}
