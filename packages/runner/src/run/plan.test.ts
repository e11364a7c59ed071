import { describe, expect, it } from 'vitest';
import { isBenchError, type TargetPlugin } from '@bench/core';
import { makePlan } from './plan.js';
import { resolveRunOptions } from '../options/resolve.js';
import { builtinScenarios } from '../project/builtin-scenarios.js';

const scenarios = builtinScenarios();
const target = (name: string, ok: boolean, supports = true): TargetPlugin => ({
  name,
  language: 'test',
  description: name,
  supports: () => (supports ? { ok: true } : { ok: false, reason: 'no handler' }),
  available: async () =>
    ok ? { ok: true } : { ok: false, reason: 'php-fpm not found (apt-get install php-fpm)', aptPackages: ['php-fpm'] },
  start: async () => {
    throw new Error('not started in plan tests');
  },
});
const options = resolveRunOptions(
  { scenarios: ['hello'] },
  { concurrency: [1, 2], durationSeconds: 1, warmupSeconds: 0, timeoutSeconds: 1 },
);
const registry = [target('here', true), target('missing', false), target('cannot', true, false)];

describe('makePlan', () => {
  it('without -t: runs what is available, skips the rest with the reason (a machine with only Node)', async () => {
    const plan = await makePlan(options, registry, scenarios);
    expect(plan.pairs.map((p) => p.target.name)).toEqual(['here']);
    expect(plan.skipped).toEqual([
      { scenario: 'hello', target: 'missing', reason: 'php-fpm not found (apt-get install php-fpm)', kind: 'unavailable' },
      { scenario: 'hello', target: 'cannot', reason: 'no handler', kind: 'unsupported' },
    ]);
  });

  it('with -t: a named target that is not installed is an error that says what to install', async () => {
    const error = await makePlan({ ...options, targets: ['here', 'missing'] }, registry, scenarios).catch((e: unknown) => e);
    expect(isBenchError(error) && error.code).toBe('BENCH_ERR_TARGET_UNAVAILABLE');
    expect(String(error)).toMatch(/apt-get install php-fpm/);
  });

  it('nothing to run is an error, not an empty report', async () => {
    const error = await makePlan({ ...options, targets: ['cannot'] }, registry, scenarios).catch((e: unknown) => e);
    expect(isBenchError(error) && error.code).toBe('BENCH_ERR_NOTHING_TO_RUN');
  });
});
