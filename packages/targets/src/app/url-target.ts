import type { TargetPlugin } from '@bench/core';

/** A server bench does not start: the `{ name, url }` form of a config target, and `bench run --url`. */
export interface UrlTargetSpec {
  readonly name: string;
  /** Base URL; each scenario's path is appended. */
  readonly url: string;
}

const never = new Promise<string>(() => {});

export function urlTarget(spec: UrlTargetSpec): TargetPlugin {
  const base = spec.url.replace(/\/+$/, '');
  return {
    name: spec.name,
    language: 'app',
    description: `a running server at ${spec.url} (not started by bench)`,
    processNames: [],
    // whatever its URL and --protocol say: bench only connects to it
    protocols: ['http1', 'https', 'h2', 'h2c'],
    supports: () => ({ ok: true }),
    available: async () => ({ ok: true }),
    start: async () => ({
      url: base,
      processGroups: [],
      settings: { url: spec.url, startedByBench: false },
      crashed: never,
      stop: async () => {},
    }),
  };
}
