import { describe, expect, it } from 'vitest';
import { describeIssue } from '@bench/core';
import { configSchema } from './schema.js';

const firstError = (config: unknown) => {
  const parsed = configSchema.safeParse(config);
  return parsed.success ? undefined : describeIssue(parsed.error.issues[0]!);
};

describe('config schema', () => {
  it('accepts every documented form', () => {
    expect(
      firstError({
        targets: [
          'node',
          './my-target.mjs',
          {
            name: 'app',
            command: 'node',
            args: ['server.js', '--port={port}'],
            env: { X: '{port}' },
            ready: { path: '/health', status: 204, timeoutSeconds: 5 },
          },
          { name: 'prod', url: 'http://127.0.0.1:8080' },
        ],
        scenarios: [
          'hello',
          './scenarios/search',
          {
            name: 'create',
            method: 'POST',
            path: '/items',
            headers: { 'x-a': 'b' },
            body: { name: 'x' },
            expect: { status: 201, json: { name: 'x' } },
          },
        ],
        reporters: ['markdown', ['json', { out: 'r.json' }], './reporter.mjs'],
        defaults: { concurrency: [10, 100], durationSeconds: 5, keepAlive: false, repeat: 3 },
        thresholds: { '*': { failed: '==0' }, 'create/app': { p99: '<50' } },
      }),
    ).toBeUndefined();
  });

  it('names the key path and what was expected', () => {
    expect(firstError({ targetz: [] })).toMatch(/^the top level: Unrecognized key: "targetz"/);
    expect(firstError({ defaults: { concurrency: 5 } })).toBe('defaults.concurrency: expected array, received number');
    expect(firstError({ targets: [{ name: 'app', command: 5 }] })).toBe('targets.0.command: expected string, received number');
    expect(firstError({ targets: [{ name: 'app' }] })).toMatch(/^targets.0.command: expected string/);
    expect(firstError({ targets: [{ name: 'prod', url: 'not a url' }] })).toMatch(/^targets.0.url: an http:\/\/ URL/);
    expect(firstError({ targets: [42] })).toBe(
      'targets.0: expected a built-in target name, a module path, { name, command, ... } or { name, url }',
    );
    expect(firstError({ scenarios: [{ name: 's', path: 'no-slash' }] })).toBe('scenarios.0.path: a path starting with /');
    expect(firstError({ thresholds: { '*': { rps: 'fast' } } })).toMatch(/^thresholds.\*.rps: an expression such as ">1000"/);
    expect(firstError({ defaults: { bogus: 1 } })).toMatch(/^defaults: Unrecognized key: "bogus"/);
  });

  it("the config's defaults may name the history", () => {
    expect(configSchema.parse({ defaults: { history: true } }).defaults).toEqual({ history: true });
    expect(configSchema.parse({ defaults: { history: 'perf/h.jsonl' } }).defaults).toEqual({ history: 'perf/h.jsonl' });
    expect(configSchema.safeParse({ defaults: { history: 3 } }).success).toBe(false);
  });
});
