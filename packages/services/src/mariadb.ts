import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type mysql from 'mysql2/promise';

// the client loads with the first MariaDB a run starts or names, not with every bench command
const client = async () => (await import('mysql2/promise')).default;
import {
  messageOf,
  errors,
  findFreePort,
  runGroupToCompletion,
  LOOPBACK,
  makePrivateDir,
  removeDir,
  spawnGroup,
  findBinary,
  versionOf,
} from '@bench/core';
import type { RunningService, ServiceDefinition } from './service.js';
import { namedDatabaseEndpoint, ownDatabaseEndpoint } from './database-endpoint.js';
import { waitUntilServing } from '@bench/core';
import { databaseProbe, seedTfbTables } from './tfb-data.js';

const DATABASE = 'bench';
const USER = 'bench';

// The table the articles' database scenarios read (one row, (1, 'test')), and TechEmpower's World and Fortune.
async function seedTable(connection: mysql.Connection): Promise<void> {
  await connection.query('CREATE TABLE IF NOT EXISTS testtable (id INT PRIMARY KEY, name VARCHAR(32)) ENGINE=InnoDB');
  await connection.query("REPLACE INTO testtable (id, name) VALUES (1, 'test')");
  await seedTfbTables(connection);
}

async function comSelect(connection: mysql.Connection): Promise<number> {
  const [rows] = await connection.query("SHOW GLOBAL STATUS LIKE 'Com_select'");
  return Number((rows as Array<{ Value: string }>)[0]?.Value ?? 0);
}

async function running(
  admin: mysql.Connection,
  endpoint: RunningService['endpoint'],
  stopServer: () => Promise<void>,
  processGroup?: number,
): Promise<RunningService> {
  return {
    endpoint,
    database: await databaseProbe(admin, endpoint.user ?? USER, endpoint.database ?? DATABASE),
    ...(processGroup !== undefined ? { processGroup } : {}),
    async readCounter() {
      return { counter: 'Com_select', value: await comSelect(admin) };
    },
    async stop() {
      await admin.end().catch(() => {});
      await stopServer();
    },
  };
}

export const mariadbService: ServiceDefinition = {
  name: 'mysql',
  title: 'MariaDB',
  binary: 'mariadbd',
  aptPackage: 'mariadb-server',
  urlVariable: 'BENCH_MYSQL_URL',
  version: () => versionOf('mariadbd', ['--version'], /Ver (\S+)/),

  async start(options = {}) {
    const host = options.host ?? LOOPBACK;
    const server = findBinary('mariadbd');
    const installDb = findBinary('mariadb-install-db');
    if (!server || !installDb) throw errors.serviceUnavailable('MariaDB', 'mariadbd', 'mariadb-server', 'BENCH_MYSQL_URL');
    const dir = makePrivateDir('mariadb');
    const datadir = path.join(dir, 'data');
    const socket = path.join(dir, 'mysqld.sock');
    const port = await findFreePort(host);
    const password = randomBytes(18).toString('base64url');
    const asRoot = process.getuid?.() === 0;
    const userArgs = asRoot ? ['--user=root'] : [];
    let stopServer = async () => removeDir(dir);
    try {
      await runGroupToCompletion(
        installDb,
        [
          '--no-defaults',
          `--datadir=${datadir}`,
          '--auth-root-authentication-method=socket',
          `--auth-root-socket-user=${os.userInfo().username}`,
          '--skip-test-db',
          ...userArgs,
        ],
        { name: 'mariadb-install-db', cwd: dir },
      );
      // --no-defaults: nothing from /etc/mysql; TCP on one address (loopback unless asked) plus a private socket; sized
      // for a connection per request
      const proc = spawnGroup(
        server,
        [
          '--no-defaults',
          `--datadir=${datadir}`,
          `--socket=${socket}`,
          `--port=${port}`,
          `--bind-address=${host}`,
          `--pid-file=${path.join(dir, 'mariadbd.pid')}`,
          '--skip-log-bin',
          '--skip-name-resolve',
          '--max-connections=4000',
          '--max-connect-errors=1000000',
          '--back-log=4096',
          '--innodb-buffer-pool-size=64M',
          '--innodb-log-file-size=16M',
          // the log written at each commit and flushed once a second, as TechEmpower's MySQL runs (its my.cnf): a
          // commit of a one-UPDATE-a-row transaction then costs no fsync of its own
          '--innodb-flush-log-at-trx-commit=2',
          '--performance-schema=OFF',
          // per-user and per-table counters (USER_STATISTICS, TABLE_STATISTICS): the TechEmpower checks' query counts
          '--userstat=1',
          ...userArgs,
        ],
        { name: 'mariadbd', cwd: dir, logFile: path.join(dir, 'mariadbd.log') },
      );
      stopServer = async () => {
        await proc.stop(15_000);
        removeDir(dir);
      };
      // the OS user running bench owns the server through unix_socket authentication
      const admin = await waitUntilServing(proc, () =>
        client().then((mysql) => mysql.createConnection({ socketPath: socket, user: os.userInfo().username, charset: 'utf8mb4' })),
      );
      await admin.query(`CREATE DATABASE IF NOT EXISTS ${DATABASE}`);
      // on loopback, bench's user connects from this machine only; on another address, from the stacks' host too
      for (const from of host === LOOPBACK ? [LOOPBACK, 'localhost'] : ['%']) {
        await admin.query(`CREATE USER IF NOT EXISTS '${USER}'@'${from}' IDENTIFIED BY ?`, [password]);
        await admin.query(`GRANT ALL ON ${DATABASE}.* TO '${USER}'@'${from}'`);
      }
      await admin.query(`USE ${DATABASE}`);
      await seedTable(admin);
      const endpoint = ownDatabaseEndpoint('mysql', host, port, USER, password, DATABASE);
      return await running(admin, endpoint, stopServer, proc.pid);
    } catch (error) {
      await stopServer();
      throw errors.serviceStart('MariaDB', messageOf(error), error);
    }
  },

  async connect(url) {
    const endpoint = namedDatabaseEndpoint('mysql', url, 3306, DATABASE);
    try {
      const admin = await (
        await client()
      ).createConnection({
        host: endpoint.host,
        port: endpoint.port,
        user: endpoint.user,
        password: endpoint.password,
        database: endpoint.database,
        charset: 'utf8mb4',
      });
      await seedTable(admin);
      return await running(admin, endpoint, async () => {});
    } catch (error) {
      throw errors.serviceStart('MariaDB', `cannot use BENCH_MYSQL_URL: ${messageOf(error)}`, error);
    }
  },
};
