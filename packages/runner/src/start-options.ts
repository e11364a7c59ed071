import type { ServiceEndpoints, TargetStartOptions } from '@bench/core';

/** The start options a target gets from the user's flags, leaving out what was not given. */
export function targetStartOptions(flags: { port?: number; workers?: number; poolSize?: number }, services: ServiceEndpoints): TargetStartOptions {
  return {
    services,
    ...(flags.port !== undefined ? { port: flags.port } : {}),
    ...(flags.workers !== undefined ? { workers: flags.workers } : {}),
    ...(flags.poolSize !== undefined ? { poolSize: flags.poolSize } : {}),
  };
}
