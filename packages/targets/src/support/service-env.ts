import type { ServiceEndpoints } from '@bench/core';

/**
 * Backing-service endpoints as environment variables, the way PHP and Perl scripts read them
 * (getenv / $ENV): BENCH_REDIS_HOST, BENCH_MYSQL_PASSWORD, ...
 */
export function serviceEnvironment(services: ServiceEndpoints): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, endpoint] of Object.entries(services)) {
    if (!endpoint) continue;
    const prefix = `BENCH_${name.toUpperCase()}`;
    env[`${prefix}_HOST`] = endpoint.host;
    env[`${prefix}_PORT`] = String(endpoint.port);
    if (endpoint.user !== undefined) env[`${prefix}_USER`] = endpoint.user;
    if (endpoint.password !== undefined) env[`${prefix}_PASSWORD`] = endpoint.password;
    if (endpoint.database !== undefined) env[`${prefix}_DATABASE`] = endpoint.database;
  }
  return env;
}
