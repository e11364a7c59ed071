import type { ServiceEndpoint, ServiceName } from '@bench/core';
import { mariadbService } from './mariadb.js';
import { memcachedService } from './memcached.js';
import { postgresService } from './postgres.js';
import { redisService } from './redis.js';
import type { ServiceDefinition } from './service.js';

/** Every backing service bench starts, by the name scenarios use. */
export const serviceDefinitions: Readonly<Record<ServiceName, ServiceDefinition>> = {
  redis: redisService,
  memcached: memcachedService,
  mysql: mariadbService,
  postgres: postgresService,
};

/**
 * An address a client of the service can use, as its own tools write one: mysql://user:password@host:port/database
 * (mariadb --host, a driver's URL), postgres://... (psql's), redis://host:port, and memcached's host:port.
 */
export function clientAddress(name: ServiceName, endpoint: ServiceEndpoint): string {
  const hostPort = `${endpoint.host}:${endpoint.port}`;
  if (name === 'memcached') return hostPort;
  if (name === 'redis') return `redis://${hostPort}`;
  const credentials = `${encodeURIComponent(endpoint.user ?? '')}:${encodeURIComponent(endpoint.password ?? '')}`;
  return `${name}://${credentials}@${hostPort}/${encodeURIComponent(endpoint.database ?? '')}`;
}

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
