import { readFileSync } from 'node:fs';
import { buildWorkload, errors, needsWorkload, requestScenario, workloadScenario, type Scenario, type TargetPlugin } from '@bench/core';
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
  // generated values may stand in the URL, -H and -b: `{{...}}` in the URL is percent-encoded by then
  const spec = {
    name: `${method} ${decodeURI(path)}`,
    method,
    path: decodeURI(path),
    headers: { ...basicAuthorization(url, options.headers), ...options.headers },
    ...(body !== undefined ? { body } : {}),
    expect: options.expectStatus !== undefined ? { status: options.expectStatus } : {},
  };
  const scenario = needsWorkload(spec)
    ? workloadScenario(
        spec,
        buildWorkload(spec, {
          entries: new Map(),
          dir: process.cwd(),
          fail: (detail) => {
            throw errors.usage(`--url: ${detail}`);
          },
        }),
      )
    : requestScenario({ ...spec, name: `${method} ${path}`, path });
  return { scenario, target: urlTarget({ name: url.host, url: url.origin }) };
}

// The URL's user info as Basic authorization, as curl sends it; an Authorization given with -H wins.
function basicAuthorization(url: URL, headers: Readonly<Record<string, string>> = {}): Record<string, string> {
  if (!url.username || Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) return {};
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { Authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}
