import { randomBytes } from 'node:crypto';
import { chownSync, readdirSync, readFileSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import {
  errors,
  findBinary,
  findFreePort,
  LOOPBACK,
  makePrivateDir,
  messageOf,
  removeDir,
  runGroupToCompletion,
  spawnGroup,
  versionOf,
  waitUntilServing,
} from '@bench/core';
import type { RunningService, ServiceDefinition } from './service.js';
import { namedDatabaseEndpoint, ownDatabaseEndpoint } from './database-endpoint.js';
import { postgresProbe, seedPostgres } from './postgres-data.js';

// the client loads with the first PostgreSQL a run starts or names, not with every bench command
const client = async () => (await import('pg')).default;

const DATABASE = 'bench';
const USER = 'bench';
const SUPERUSER = 'postgres';

/** Debian keeps PostgreSQL's server programs off PATH, one folder per major version: the newest first. */
function serverDirs(): string[] {
  try {
    return readdirSync('/usr/lib/postgresql')
      .filter((version) => /^\d+$/.test(version))
      .sort((a, b) => Number(b) - Number(a))
      .map((version) => path.join('/usr/lib/postgresql', version, 'bin'));
  } catch {
    return [];
  }
}

const locate = (binary: string) => findBinary(binary, serverDirs());

/** PostgreSQL refuses to run as root: root starts it as the system's postgres user (Debian's package makes one), or nobody. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n');
  for (const name of ['postgres', 'nobody']) {
    const fields = passwd.find((line) => line.startsWith(`${name}:`))?.split(':');
    if (fields) return { uid: Number(fields[2]), gid: Number(fields[3]) };
  }
  throw errors.serviceStart('PostgreSQL', 'it will not run as root, and this machine has no postgres or nobody user to run it as');
}

function chownTree(dir: string, user: { uid: number; gid: number }): void {
  chownSync(dir, user.uid, user.gid);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(file, user);
    else chownSync(file, user.uid, user.gid);
  }
}

async function running(
  admin: pg.Client,
  endpoint: RunningService['endpoint'],
  stopServer: () => Promise<void>,
  processGroup?: number,
): Promise<RunningService> {
  const probe = await postgresProbe(admin, endpoint.user ?? USER);
  return {
    endpoint,
    database: probe,
    ...(processGroup !== undefined ? { processGroup } : {}),
    async readCounter() {
      return { counter: 'pg_stat_statements calls', value: await probe.statements() };
    },
    async stop() {
      await admin.end().catch(() => {});
      await stopServer();
    },
  };
}

export const postgresService: ServiceDefinition = {
  name: 'postgres',
  title: 'PostgreSQL',
  binary: 'postgres',
  binaryDirs: serverDirs,
  aptPackage: 'postgresql',
  urlVariable: 'BENCH_POSTGRES_URL',
  version: async () => {
    const binary = locate('postgres');
    return binary ? versionOf(binary, ['--version'], /\(PostgreSQL\) (\S+)/) : undefined;
  },

  async start(options = {}) {
    const host = options.host ?? LOOPBACK;
    const server = locate('postgres');
    const initdb = locate('initdb');
    if (!server || !initdb) throw errors.serviceUnavailable('PostgreSQL', 'postgres', 'postgresql', 'BENCH_POSTGRES_URL');
    const dir = makePrivateDir('postgres');
    const datadir = path.join(dir, 'data');
    const port = await findFreePort(host);
    const password = randomBytes(18).toString('base64url');
    let stopServer = async () => removeDir(dir);
    try {
      const user = serverUser();
      if (user) chownTree(dir, user);
      const asUser = user ? { user } : {};
      // the superuser reaches it through the private socket only (trust there: the dir is 0700); bench's user by password
      await runGroupToCompletion(
        initdb,
        [
          `--pgdata=${datadir}`,
          `--username=${SUPERUSER}`,
          '--auth-local=trust',
          '--auth-host=scram-sha-256',
          '--encoding=UTF8',
          '--locale=C',
          '--no-sync',
        ],
        { name: 'initdb', cwd: dir, ...asUser },
      );
      if (host !== LOOPBACK) appendFileSync(path.join(datadir, 'pg_hba.conf'), 'host all all all scram-sha-256\n');
      // TCP on one address plus a private socket; pg_stat_statements for TFB's counts; commits as TFB's postgresql.conf
      // makes them (synchronous_commit off); sized for a connection per request
      const proc = spawnGroup(
        server,
        [
          '-D',
          datadir,
          '-c',
          `listen_addresses=${host}`,
          '-c',
          `port=${port}`,
          '-c',
          `unix_socket_directories=${dir}`,
          '-c',
          'shared_preload_libraries=pg_stat_statements',
          '-c',
          'pg_stat_statements.max=10000',
          '-c',
          'max_connections=2000',
          '-c',
          'shared_buffers=256MB',
          '-c',
          'synchronous_commit=off',
          '-c',
          'logging_collector=off',
          '-c',
          'log_min_messages=warning',
        ],
        { name: 'postgres', cwd: dir, logFile: path.join(dir, 'postgres.log'), ...asUser },
      );
      stopServer = async () => {
        // SIGTERM is PostgreSQL's smart shutdown, which waits for clients; SIGINT is its fast one
        await proc.stop(15_000);
        removeDir(dir);
      };
      const admin = await waitUntilServing(proc, async () => {
        const c = new (await client()).Client({ host: dir, port, user: SUPERUSER, database: 'postgres' });
        c.on('error', () => {});
        try {
          await c.connect();
          return c;
        } catch (error) {
          await c.end().catch(() => {});
          throw error;
        }
      });
      await admin.query(`CREATE ROLE ${USER} LOGIN PASSWORD '${password}'`);
      await admin.query(`CREATE DATABASE ${DATABASE} OWNER ${USER}`);
      await admin.end();
      const inDatabase = new (await client()).Client({ host: dir, port, user: SUPERUSER, database: DATABASE });
      await inDatabase.connect();
      await inDatabase.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      await inDatabase.query(`SET ROLE ${USER}`);
      await seedPostgres(inDatabase);
      await inDatabase.query('RESET ROLE');
      const endpoint = ownDatabaseEndpoint('postgres', host, port, USER, password, DATABASE);
      return await running(inDatabase, endpoint, stopServer, proc.pid);
    } catch (error) {
      await stopServer();
      throw errors.serviceStart('PostgreSQL', messageOf(error), error);
    }
  },

  async connect(url) {
    const endpoint = namedDatabaseEndpoint('postgres', url, 5432, DATABASE);
    try {
      const admin = new (await client()).Client({
        host: endpoint.host,
        port: endpoint.port,
        user: endpoint.user,
        password: endpoint.password,
        database: endpoint.database,
      });
      admin.on('error', () => {});
      await admin.connect();
      await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      await seedPostgres(admin);
      return await running(admin, endpoint, async () => {});
    } catch (error) {
      throw errors.serviceStart('PostgreSQL', `cannot use BENCH_POSTGRES_URL: ${messageOf(error)}`, error);
    }
  },
};
