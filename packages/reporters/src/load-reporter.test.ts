import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isBenchError } from '@bench/core';
import { loadReporter } from './load-reporter.js';
import { fixtureDocument, okResult } from '../test-fixtures/document.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-fixtures');
const context = (stdout: (t: string) => void = () => {}) => ({ options: { prefix: 'p' }, stdout });

async function codeOf(spec: string): Promise<string | undefined> {
  try {
    await loadReporter(spec, context());
  } catch (error) {
    return isBenchError(error) ? error.code : 'not a BenchError';
  }
  return undefined;
}

describe('loadReporter', () => {
  it('loads a built-in by name', async () => {
    expect((await loadReporter('markdown', context())).name).toBe('markdown');
  });

  it('loads a module whose default export is a factory, handing it the context', async () => {
    let out = '';
    const reporter = await loadReporter(
      path.join(fixtures, 'factory-reporter.mjs'),
      context((t) => (out += t)),
    );
    await reporter.onResult?.(okResult, fixtureDocument());
    expect(out).toBe('php-mod:302.11:p\n');
  });

  it('loads a module whose default export is a reporter object, keeping its `this`', async () => {
    const reporter = await loadReporter(path.join(fixtures, 'object-reporter.mjs'), context());
    await reporter.onResult?.(okResult, fixtureDocument());
    const module = (await import(path.join(fixtures, 'object-reporter.mjs'))) as { default: { seen: number } };
    expect(module.default.seen).toBe(1);
  });

  it('gives coded errors for missing, broken and unusable modules', async () => {
    expect(await codeOf('no-such-reporter')).toBe('BENCH_ERR_UNKNOWN_REPORTER');
    expect(await codeOf('./does/not/exist.mjs')).toBe('BENCH_ERR_REPORTER_LOAD');
    expect(await codeOf(path.join(fixtures, 'throws-on-import.mjs'))).toBe('BENCH_ERR_REPORTER_LOAD');
    expect(await codeOf(path.join(fixtures, 'no-hooks.mjs'))).toBe('BENCH_ERR_REPORTER_LOAD');
  });
});
