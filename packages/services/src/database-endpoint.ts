import type { ServiceEndpoint } from '@bench/core';

/** A database bench started: its user, generated password and database, its URL written without the password. */
export function ownDatabaseEndpoint(
  scheme: string,
  host: string,
  port: number,
  user: string,
  password: string,
  database: string,
): ServiceEndpoint {
  return { host, port, user, password, database, url: `${scheme}://${user}:***@${host}:${port}/${database}` };
}

/** A database a user named by URL (BENCH_MYSQL_URL, BENCH_POSTGRES_URL): its parts, its URL written without the password. */
export function namedDatabaseEndpoint(scheme: string, url: string, defaultPort: number, defaultDatabase: string): ServiceEndpoint {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || defaultPort),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: parsed.pathname.replace(/^\//, '') || defaultDatabase,
    url: `${scheme}://${parsed.username}:***@${parsed.host}${parsed.pathname}`,
  };
}
