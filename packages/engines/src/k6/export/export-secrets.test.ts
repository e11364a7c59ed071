import { describe, expect, it } from 'vitest';
import type { Scenario } from '@bench/core';
import { assertNoSecret, readSecretsFromEnvironment, takeSecrets } from './export-secrets.js';

const scenario = (headers: Record<string, string>) =>
  ({ name: 's', request: { method: 'GET', path: '/', headers }, services: [] }) as unknown as Scenario;

describe("an export's secrets", () => {
  it("takes secret headers and the URL's user info out, as variables the script reads", () => {
    const secrets = takeSecrets(
      scenario({ Cookie: 'sid=abc123', 'X-Key': 'k-999', Accept: 'text/plain' }),
      'http://ann:pw%21@10.0.0.2:8080/',
      ['x-key'],
    );
    expect(secrets.baseUrl).toBe('http://10.0.0.2:8080');
    expect(secrets.values).toEqual({
      BENCH_SECRET_1: 'sid=abc123',
      BENCH_SECRET_2: 'k-999',
      BENCH_SECRET_3: `Basic ${Buffer.from('ann:pw!').toString('base64')}`,
    });
    expect(secrets.described.BENCH_SECRET_3).toBe("header Authorization (the URL's user info)");
    expect(secrets.scenario.request.headers.Accept).toBe('text/plain');
    const script = readSecretsFromEnvironment(`const h = ${JSON.stringify(secrets.scenario.request.headers)};`, secrets);
    expect(script).toBe(
      'const h = {"Cookie":__ENV.BENCH_SECRET_1,"X-Key":__ENV.BENCH_SECRET_2,"Accept":"text/plain","Authorization":__ENV.BENCH_SECRET_3};',
    );
  });

  it("refuses a workload step's secret header written in the config, not one made from a captured value", async () => {
    const { buildWorkload } = await import('@bench/core');
    const flow = (authorization: string) =>
      ({
        name: 'f',
        services: [],
        request: { method: 'GET', path: '/', headers: {} },
        workload: buildWorkload(
          { name: 'f', steps: [{ name: 'a', path: '/a', headers: { authorization } }] },
          {
            entries: new Map(),
            dir: '.',
            fail: (detail) => {
              throw new Error(detail);
            },
          },
        ),
      }) as unknown as Scenario;
    expect(() => takeSecrets(flow('Bearer written-here'), 'http://h/')).toThrow(/step "a" sends authorization, a secret header/);
    expect(() => takeSecrets(flow('Bearer {{randomInt 1 9}}'), 'http://h/')).not.toThrow();
  });

  it('refuses a file that still holds a secret inside a longer value', () => {
    expect(() => assertNoSecret({ 'script.js': 'body: "token=s3cret-value"' }, ['s3cret-value'])).toThrow(
      /would write a secret into script\.js/,
    );
    expect(() => assertNoSecret({ 'script.js': 'nothing here' }, ['s3cret-value'])).not.toThrow();
  });
});
