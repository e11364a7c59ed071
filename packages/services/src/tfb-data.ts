import { randomInt } from 'node:crypto';
import type mysql from 'mysql2/promise';
import { TFB_FORTUNES, type DatabaseKind, type DatabaseWork, type TfbTable } from '@bench/core';

/** TFB's World has 10,000 rows, ids 1..10000, each with a randomNumber in 1..10000. */
export const WORLD_ROWS = 10_000;

/** How the verifier reads the database around a burst, and the World table around the update cases. */
export interface DatabaseProbe {
  /** Which database it is: TFB reads each one's counters its own way. */
  readonly kind: DatabaseKind;
  /** Which counters it reads, for a message: MariaDB's userstat (scoped to bench's user and database) or its global status. */
  readonly counters: string;
  /**
   * Statements, rows read and rows changed so far (subtract two readings for the work between them); TFB counts on
   * PostgreSQL the statements naming the test's table, on MySQL every statement.
   */
  work(table: TfbTable): Promise<DatabaseWork>;
  /** Every row of World, id -> randomNumber. */
  world(): Promise<Map<number, number>>;
}

/**
 * TFB's schema and data, idempotently: World(id, randomNumber) with 10,000 rows of random numbers (refilled when it
 * does not hold exactly ids 1..10000) and Fortune(id, message) with TFB's twelve rows. Named as TFB's specification
 * names them; bench's MariaDB keeps names' case (Linux).
 */
export async function seedTfbTables(connection: mysql.Connection): Promise<void> {
  await connection.query(
    'CREATE TABLE IF NOT EXISTS World (id INT UNSIGNED NOT NULL PRIMARY KEY, randomNumber INT NOT NULL DEFAULT 0) ENGINE=InnoDB',
  );
  await connection.query(
    'CREATE TABLE IF NOT EXISTS Fortune (id INT UNSIGNED NOT NULL PRIMARY KEY, message VARCHAR(2048) NOT NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4',
  );
  const [counted] = await connection.query('SELECT COUNT(*) AS n, MIN(id) AS low, MAX(id) AS high FROM World');
  const { n, low, high } = (counted as Array<{ n: number; low: number | null; high: number | null }>)[0] ?? { n: 0, low: null, high: null };
  if (Number(n) !== WORLD_ROWS || Number(low) !== 1 || Number(high) !== WORLD_ROWS) {
    await connection.query('DELETE FROM World');
    for (let first = 1; first <= WORLD_ROWS; first += 1000) {
      const rows = Array.from({ length: 1000 }, (_, i) => [first + i, randomInt(1, WORLD_ROWS + 1)]);
      await connection.query('INSERT INTO World (id, randomNumber) VALUES ?', [rows]);
    }
  }
  await connection.query('DELETE FROM Fortune');
  await connection.query('INSERT INTO Fortune (id, message) VALUES ?', [TFB_FORTUNES.map((f) => [f.id, f.message])]);
}

type Row = Record<string, string | number | null>;
const num = (value: unknown) => Number(value ?? 0);

/**
 * Counters of MariaDB's userstat: USER_STATISTICS for the statements of bench's user (SELECT and UPDATE commands),
 * TABLE_STATISTICS for the rows of World and Fortune in bench's database (read, and changed). Both are scoped, so
 * the work of another user or database on the same server is not counted; rows read count the row each UPDATE reads,
 * as InnoDB's counter TFB reads does.
 */
async function userstatWork(admin: mysql.Connection, user: string, database: string): Promise<DatabaseWork> {
  const [users] = await admin.query('SELECT SELECT_COMMANDS, UPDATE_COMMANDS FROM INFORMATION_SCHEMA.USER_STATISTICS WHERE USER = ?', [
    user,
  ]);
  const [tables] = await admin.query(
    "SELECT ROWS_READ, ROWS_CHANGED FROM INFORMATION_SCHEMA.TABLE_STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN ('World', 'Fortune')",
    [database],
  );
  const sum = (rows: unknown, field: string) => (rows as Row[]).reduce((total, r) => total + num(r[field]), 0);
  return {
    selects: sum(users, 'SELECT_COMMANDS'),
    updates: sum(users, 'UPDATE_COMMANDS'),
    rowsRead: sum(tables, 'ROWS_READ'),
    rowsUpdated: sum(tables, 'ROWS_CHANGED'),
  };
}

/** The server's global counters, as TFB reads MySQL's: every client of the server counts. */
async function globalStatusWork(admin: mysql.Connection): Promise<DatabaseWork> {
  const [rows] = await admin.query(
    "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_select', 'Com_update', 'Innodb_rows_read', 'Innodb_rows_updated')",
  );
  const value = new Map((rows as Array<{ Variable_name: string; Value: string }>).map((r) => [r.Variable_name, Number(r.Value)]));
  return {
    selects: value.get('Com_select') ?? 0,
    updates: value.get('Com_update') ?? 0,
    rowsRead: value.get('Innodb_rows_read') ?? 0,
    rowsUpdated: value.get('Innodb_rows_updated') ?? 0,
  };
}

/** Whether userstat is on, turning it on where the connection may (SET GLOBAL needs SUPER). */
async function userstatOn(admin: mysql.Connection): Promise<boolean> {
  try {
    const [rows] = await admin.query('SELECT @@GLOBAL.userstat AS userstat');
    if (num((rows as Row[])[0]?.userstat) === 1) return true;
    await admin.query('SET GLOBAL userstat = 1');
    return true;
  } catch {
    return false;
  }
}

/** The probe of a MariaDB: userstat's scoped counters where the server has them, else its global status. */
export async function databaseProbe(admin: mysql.Connection, user: string, database: string): Promise<DatabaseProbe> {
  const scoped = await userstatOn(admin);
  return {
    kind: 'mysql',
    counters: scoped ? `userstat of user ${user} and database ${database}` : 'global status',
    work: () => (scoped ? userstatWork(admin, user, database) : globalStatusWork(admin)),
    async world() {
      const [rows] = await admin.query(`SELECT id, randomNumber FROM \`${database}\`.World`);
      return new Map((rows as Row[]).map((r) => [num(r.id), num(r.randomNumber)]));
    },
  };
}
