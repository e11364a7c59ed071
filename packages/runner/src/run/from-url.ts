import { readFileSync } from 'node:fs';
import { errors, requestScenario, type Scenario, type TargetPlugin } from '@bench/core';
import { urlTarget } from '@bench/targets';
import type { RunOptions } from '../options/declarations.js';

/** `bench run --url URL`: the running server as a target, and its one request (method, headers, body) as a scenario. */
export function targetAndScenarioFromUrl(options: RunOptions & { readonly url: string }): { scenario: Scenario; target: TargetPlugin } {
  const url = new URL(options.url);
  const method = options.method ?? 'GET';
  const path = `${url.pathname}${url.search}`;
  let body: string | undefined = options.body;
  if (options.bodyFile !== undefined) {
    try {
      body = readFileSync(options.bodyFile, 'utf8');
    } catch (error) {
      throw errors.usage(`--body-file "${options.bodyFile}" cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  const scenario = requestScenario({
    name: `${method} ${path}`,
    method,
    path,
    headers: { ...options.headers },
    ...(body !== undefined ? { body } : {}),
    expect: options.expectStatus !== undefined ? { status: options.expectStatus } : {},
  });
  return { scenario, target: urlTarget({ name: url.host, url: url.origin }) };
}
