import path from 'node:path';
import type { Scenario } from '@bench/core';
import type { Requirement } from '../support/probe.js';
import { jarVersion, systemJar } from './jdk.js';
import { fetchPinnedJars, HIKARICP_VERSION, JEDIS_JARS, JEDIS_VERSION, POSTGRES_JARS, POSTGRES_JDBC_VERSION } from './maven-jars.js';

const MARIADB_JAR = 'mariadb-java-client.jar';
const SPYMEMCACHED_JAR = 'spymemcached.jar';

/** The backend clients from Debian: JDBC for MariaDB, spymemcached for memcached (Jedis, pgjdbc and HikariCP come from Maven Central at first use). */
export function clientRequirements(): Requirement[] {
  return [
    { binary: MARIADB_JAR, path: systemJar(MARIADB_JAR), aptPackage: 'libmariadb-java' },
    { binary: SPYMEMCACHED_JAR, path: systemJar(SPYMEMCACHED_JAR), aptPackage: 'libspymemcached-java' },
  ];
}

export function clientVersions(): Record<string, string> {
  return {
    mariadbJdbc: jarVersion(systemJar(MARIADB_JAR)),
    jedis: JEDIS_VERSION,
    postgresJdbc: POSTGRES_JDBC_VERSION,
    hikariCP: HIKARICP_VERSION,
  };
}

/** The client jars the scenarios' services need; those from Maven Central are fetched (once) into `mavenDir`. */
export async function clientJarsFor(scenarios: readonly Scenario[], mavenDir: string): Promise<string[]> {
  const jars: string[] = [];
  for (const service of new Set(scenarios.flatMap((scenario) => scenario.services))) {
    if (service === 'mysql') jars.push(systemJar(MARIADB_JAR) ?? path.join('/usr/share/java', MARIADB_JAR));
    if (service === 'memcached') jars.push(systemJar(SPYMEMCACHED_JAR) ?? path.join('/usr/share/java', SPYMEMCACHED_JAR));
    if (service === 'redis') jars.push(...(await fetchPinnedJars(JEDIS_JARS, mavenDir)));
    if (service === 'postgres') jars.push(...(await fetchPinnedJars(POSTGRES_JARS, mavenDir)));
  }
  // slf4j-api serves Jedis and HikariCP both: once on the classpath
  return [...new Set(jars)];
}
