import type { ServiceName } from '@bench/core';
import { mariadbService } from './mariadb.js';
import { memcachedService } from './memcached.js';
import { redisService } from './redis.js';
import type { ServiceDefinition } from './service.js';

/** Every backing service bench starts, by the name scenarios use. */
export const serviceDefinitions: Readonly<Record<ServiceName, ServiceDefinition>> = {
  redis: redisService,
  memcached: memcachedService,
  mysql: mariadbService,
};

export interface ServiceDescription {
  readonly name: string;
  readonly binary: string;
  readonly found: boolean;
  readonly version?: string;
  readonly aptPackage: string;
  readonly urlVariable: string;
}

/** Each backing service: found or not, its version, and how to get it (for `bench doctor`). */
export async function describeServices(): Promise<ServiceDescription[]> {
  return Promise.all(
    Object.values(serviceDefinitions).map(async (d) => {
      const version = await d.version();
      return {
        name: d.title,
        binary: d.binary,
        found: version !== undefined,
        ...(version !== undefined ? { version } : {}),
        aptPackage: d.aptPackage,
        urlVariable: d.urlVariable,
      };
    }),
  );
}
