import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { messageOf, errors } from '@bench/core';

/** A jar from Maven Central, pinned by its sha256. */
export interface PinnedJar {
  /** Path under the repository root, e.g. redis/clients/jedis/8.0.2/jedis-8.0.2.jar */
  readonly path: string;
  readonly sha256: string;
}

export const MAVEN_CENTRAL = 'https://repo1.maven.org/maven2';

export const JEDIS_VERSION = '8.0.2';

// Debian has no Redis client for Java. Jedis, Redis's own synchronous client, with its runtime
// dependencies as Maven resolves them (mvn dependency:tree), each pinned by sha256 (checked against
// Central's .sha1 when pinned): fetched once at first use, like an npm package from the lockfile.
export const JEDIS_JARS: readonly PinnedJar[] = [
  {
    path: `redis/clients/jedis/${JEDIS_VERSION}/jedis-${JEDIS_VERSION}.jar`,
    sha256: '34fb85c67291fd70cee4e2e86240b0c155ea8b998175975e264d86baaf54ffc2',
  },
  { path: 'org/slf4j/slf4j-api/1.7.36/slf4j-api-1.7.36.jar', sha256: 'd3ef575e3e4979678dc01bf1dcce51021493b4d11fb7f1be8ad982877c16a1c0' },
  {
    path: 'org/apache/commons/commons-pool2/2.13.1/commons-pool2-2.13.1.jar',
    sha256: 'f77a5060d6936a9144023584232f9de3f2248f1abfe156e9d31795f18770674f',
  },
  { path: 'org/json/json/20260719/json-20260719.jar', sha256: 'c243f45f9590c12694a4142ed3f07fc70dfb71e4daebd05ae234bf92a2da92a6' },
  { path: 'com/google/code/gson/gson/2.14.0/gson-2.14.0.jar', sha256: '2cbd119bf1961c28788310963dc80ba65f58cdeec1dd139c8bdb1240faa2c36f' },
  {
    path: 'com/google/errorprone/error_prone_annotations/2.48.0/error_prone_annotations-2.48.0.jar',
    sha256: 'b49c5c958316ed67a09c699dda9aa749caf434d51d863dea599ef36a49b9c855',
  },
  {
    path: 'redis/clients/authentication/redis-authx-core/0.1.1-beta2/redis-authx-core-0.1.1-beta2.jar',
    sha256: 'cc56edb08b3df8562cddac108dca61907d21cc4ad04de05e9f5d1b01058390af',
  },
];

export const POSTGRES_JDBC_VERSION = '42.7.14';
export const HIKARICP_VERSION = '6.3.3';

// PostgreSQL's JDBC driver (pgjdbc) and a pool for it, HikariCP 6 (Java 11+), pinned and fetched as Jedis. pgjdbc's one
// runtime dependency, checker-qual, holds annotations only (the JVM skips those it cannot load): left out. Hikari's one,
// slf4j-api, is Jedis's pin (Hikari's manifest takes slf4j [1.6,2)).
export const POSTGRES_JARS: readonly PinnedJar[] = [
  {
    path: `org/postgresql/postgresql/${POSTGRES_JDBC_VERSION}/postgresql-${POSTGRES_JDBC_VERSION}.jar`,
    sha256: '73914527305a40cce504b0d3d90b23caf565136912d607ae8ae7c5895512332c',
  },
  {
    path: `com/zaxxer/HikariCP/${HIKARICP_VERSION}/HikariCP-${HIKARICP_VERSION}.jar`,
    sha256: '709f378c05756280939ce50fc1b1f1a53bb8e1899dc1b249f21f12703640b48b',
  },
  ...JEDIS_JARS.filter((jar) => jar.path.startsWith('org/slf4j/slf4j-api/')),
];

const sha256 = (data: Buffer | Uint8Array): string => createHash('sha256').update(data).digest('hex');

// jars checked in this process: Resin's 17 MB need not be hashed again at every start
const checked = new Set<string>();

function verified(file: string, jar: PinnedJar): boolean {
  if (checked.has(file)) return true;
  const ok = existsSync(file) && sha256(readFileSync(file)) === jar.sha256;
  if (ok) checked.add(file);
  return ok;
}

/**
 * The local copies of the jars under `repository` (a Maven-layout folder), fetching from Maven Central
 * whatever is missing or altered (each jar is hashed once per process); a download whose sha256
 * differs from the pin is refused.
 */
export async function fetchPinnedJars(jars: readonly PinnedJar[], repository: string, remote = MAVEN_CENTRAL): Promise<string[]> {
  const files: string[] = [];
  for (const jar of jars) {
    const file = path.join(repository, ...jar.path.split('/'));
    if (!verified(file, jar)) {
      const url = `${remote}/${jar.path}`;
      let response: Response;
      try {
        response = await fetch(url, { signal: AbortSignal.timeout(60_000) });
      } catch (error) {
        throw errors.download(url, messageOf(error));
      }
      if (!response.ok) throw errors.download(url, `HTTP ${response.status}`);
      const data = Buffer.from(await response.arrayBuffer());
      if (sha256(data) !== jar.sha256) throw errors.download(url, `it has sha256 ${sha256(data)}, pinned ${jar.sha256}: refused`);
      mkdirSync(path.dirname(file), { recursive: true });
      // write beside, then rename: a concurrent run never sees half a jar
      const partial = `${file}.${process.pid}.part`;
      writeFileSync(partial, data);
      try {
        renameSync(partial, file);
      } finally {
        rmSync(partial, { force: true });
      }
      checked.add(file);
    }
    files.push(file);
  }
  return files;
}
