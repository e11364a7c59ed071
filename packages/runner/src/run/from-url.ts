import { readFileSync } from 'node:fs';
import { buildWorkload, errors, needsWorkload, requestScenario, workloadScenario, type Scenario, type TargetPlugin } from '@bench/core';
import { urlTarget } from '@bench/targets';
import type { RunOptions } from '../options/declarations.js';

/**
 * Generated values may stand in the URL, -H and -b: URL parsing percent-encoded the braces of each `{{...}}` in the
 * path (and the spaces in it): each is given back as written, and the rest of the path stays encoded, as it is sent.
 */
function templateOfUrlPath(path: string): string {
  return path.replace(/(?:\{|%7B){2}(.*?)(?:\}|%7D){2}/gi, (call, inner: string) => {
    try {
      return `{{${decodeURIComponent(inner)}}}`;
    } catch {
      return call;
    }
  });
}

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
  const template = templateOfUrlPath(path);
  const spec = {
    name: `${method} ${template}`,
    method,
    path: template,
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
