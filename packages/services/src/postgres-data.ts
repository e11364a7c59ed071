import type pg from 'pg';
import { TFB_FORTUNES, type DatabaseWork, type TfbTable } from '@bench/core';
import { WORLD_ROWS, type DatabaseProbe } from './tfb-data.js';

/**
 * The articles' testtable and TFB's World and Fortune, idempotently, as TFB's create-postgres.sql makes them: names
 * unquoted, so PostgreSQL folds them to world, fortune and randomnumber, which the stacks' SQL reaches as written.
 */
export async function seedPostgres(client: pg.Client): Promise<void> {
  await client.query('CREATE TABLE IF NOT EXISTS testtable (id integer PRIMARY KEY, name varchar(32))');
  await client.query("INSERT INTO testtable (id, name) VALUES (1, 'test') ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name");
  await client.query('CREATE TABLE IF NOT EXISTS World (id integer NOT NULL PRIMARY KEY, randomNumber integer NOT NULL DEFAULT 0)');
  await client.query('CREATE TABLE IF NOT EXISTS Fortune (id integer NOT NULL PRIMARY KEY, message varchar(2048) NOT NULL)');
  const counted = await client.query<{ n: string; low: number | null; high: number | null }>(
    'SELECT COUNT(*) AS n, MIN(id) AS low, MAX(id) AS high FROM World',
  );
  const { n, low, high } = counted.rows[0] ?? { n: '0', low: null, high: null };
  if (Number(n) !== WORLD_ROWS || low !== 1 || high !== WORLD_ROWS) {
    await client.query('DELETE FROM World');
    await client.query(
      `INSERT INTO World (id, randomNumber) SELECT x, least(floor(random() * ${WORLD_ROWS} + 1), ${WORLD_ROWS}) FROM generate_series(1, ${WORLD_ROWS}) AS x`,
    );
  }
  await client.query('DELETE FROM Fortune');
  for (const fortune of TFB_FORTUNES)
    await client.query('INSERT INTO Fortune (id, message) VALUES ($1, $2)', [fortune.id, fortune.message]);
}

/**
 * TFB's PostgreSQL class finds a test's statements in pg_stat_statements by the table's name as a word of their text,
 * without case (toolset/databases/postgres/postgres.py; its earlier pattern, `([:punct:]|[:space:])world`, matched no
 * statement here: PostgreSQL reads [:punct:] outside brackets as a set of letters).
 */
const tfbTablePattern = (table: TfbTable) => `[[:<:]]${table}[[:>:]]`;

/**
 * TFB's three readings of pg_stat_statements (calls of the statements naming the table; rows of those that also match
 * 'select'; rows of those that match 'update'), in one query, kept to the statements of bench's user (TFB's read every
 * user's). As DatabaseWork: the calls that match 'update' are the updates, the rest the selects, so their sum is TFB's
 * count of queries.
 */
async function statementsWork(admin: pg.Client, userId: number, table: TfbTable): Promise<DatabaseWork> {
  const result = await admin.query<{ calls: string; updates: string; read: string; updated: string }>(
    `SELECT COALESCE(SUM(calls), 0) AS calls,
            COALESCE(SUM(calls) FILTER (WHERE query ~* 'update'), 0) AS updates,
            COALESCE(SUM(rows) FILTER (WHERE query ~* 'select'), 0) AS read,
            COALESCE(SUM(rows) FILTER (WHERE query ~* 'update'), 0) AS updated
       FROM pg_stat_statements WHERE userid = $1 AND query ~* $2`,
    [userId, tfbTablePattern(table)],
  );
  const row = result.rows[0];
  const updates = Number(row?.updates ?? 0);
  return {
    selects: Number(row?.calls ?? 0) - updates,
    updates,
    rowsRead: Number(row?.read ?? 0),
    rowsUpdated: Number(row?.updated ?? 0),
  };
}

/** The probe of a PostgreSQL, and the calls of bench's user (the counter a run reads around its cells). */
export async function postgresProbe(admin: pg.Client, user: string): Promise<DatabaseProbe & { statements(): Promise<number> }> {
  const role = await admin.query<{ oid: number }>('SELECT oid FROM pg_roles WHERE rolname = $1', [user]);
  const userId = role.rows[0]?.oid;
  if (userId === undefined) throw new Error(`PostgreSQL has no role ${user}`);
  return {
    kind: 'postgres',
    counters: `pg_stat_statements of user ${user}`,
    work: (table) => statementsWork(admin, userId, table),
    async statements() {
      const result = await admin.query<{ calls: string }>(
        'SELECT COALESCE(SUM(calls), 0) AS calls FROM pg_stat_statements WHERE userid = $1',
        [userId],
      );
      return Number(result.rows[0]?.calls ?? 0);
    },
    async world() {
      const result = await admin.query<[number, number]>({ text: 'SELECT id, randomNumber FROM World', rowMode: 'array' });
      return new Map(result.rows.map(([id, number]) => [Number(id), Number(number)]));
    },
  };
}
