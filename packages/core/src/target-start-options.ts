import type { ServiceEndpoints, TargetStartOptions } from './target.js';
import type { Protocol } from './tls/protocol.js';
import type { TlsMaterial } from './tls/run-certificates.js';

/** The start options a target gets from the run's options, leaving out what was not given; load follows, so targets warm up. */
export function targetStartOptions(
  given: {
    port?: number;
    workers?: number;
    poolSize?: number;
    maxConcurrency?: number;
    env?: Readonly<Record<string, string>>;
    protocol?: Protocol;
    tls?: TlsMaterial;
  },
  services: ServiceEndpoints,
): TargetStartOptions {
  return {
    services,
    warmUp: true,
    ...(given.port !== undefined ? { port: given.port } : {}),
    ...(given.workers !== undefined ? { workers: given.workers } : {}),
    ...(given.poolSize !== undefined ? { poolSize: given.poolSize } : {}),
    ...(given.maxConcurrency !== undefined ? { maxConcurrency: given.maxConcurrency } : {}),
    ...(given.env !== undefined ? { env: given.env } : {}),
    ...(given.protocol !== undefined && given.protocol !== 'http1' ? { protocol: given.protocol } : {}),
    ...(given.tls !== undefined ? { tls: given.tls } : {}),
  };
}
