import { fail, warn, type TfbProblem } from './problems.js';

/**
 * A database's counters as TFB's MySQL class reads them, cumulative (read before and after a burst): SELECT and UPDATE
 * statements (MySQL's Com_select, Com_update), rows read (Innodb_rows_read, which counts the row an UPDATE reads) and
 * rows updated (Innodb_rows_updated).
 */
export interface DatabaseWork {
  readonly selects: number;
  readonly updates: number;
  readonly rowsRead: number;
  readonly rowsUpdated: number;
}

/** The databases bench starts for TFB's types; TFB's verifier reads each one's counters its own way. */
export type DatabaseKind = 'mysql' | 'postgres';

/** The table TFB names when it counts a test's statements on PostgreSQL: fortune for fortunes, world for the others. */
export type TfbTable = 'world' | 'fortune';

/**
 * TFB's MySQL margin: its Database class multiplies every counter it reads by 1.015 and cuts the product to a whole
 * number (`int()`), statements included; its verifier's docstring says no margin is taken on statements, its code
 * takes this one (toolset/databases/mysql/mysql.py, get_queries).
 */
export const TFB_MYSQL_MARGIN = 1.015;

/** What TFB's MySQL class returns of one reading: each counter scaled by the margin and truncated, as it sums them. */
export function tfbMysqlReading(work: DatabaseWork): { readonly queries: number; readonly rows: number; readonly rowsUpdated: number } {
  const scaled = (value: number) => Math.trunc(value * TFB_MYSQL_MARGIN);
  return {
    queries: scaled(work.selects) + scaled(work.updates),
    rows: scaled(work.rowsRead - work.rowsUpdated),
    rowsUpdated: scaled(work.rowsUpdated),
  };
}

/** A reading as TFB's verifier takes it, and the number it prints of a counter. */
interface TfbReader {
  read(work: DatabaseWork): { readonly queries: number; readonly rows: number; readonly rowsUpdated: number };
  shown(value: number): number;
}

const tfbReaders: Readonly<Record<DatabaseKind, TfbReader>> = {
  mysql: { read: tfbMysqlReading, shown: (value) => Math.trunc(value / TFB_MYSQL_MARGIN) },
  // TFB's PostgreSQL class sums pg_stat_statements: every call of a statement naming the table, the rows of those that
  // select, and of those that update; no margin
  postgres: {
    read: (work) => ({ queries: work.selects + work.updates, rows: work.rowsRead, rowsUpdated: work.rowsUpdated }),
    shown: (value) => value,
  },
};

/**
 * TFB's display_queries_count_result: `result` is the reading with the margins TFB applies, `shown` the number it
 * prints; more than 5% over the expected warns, fewer fails.
 */
function countProblem(caption: string, result: number, expected: number, shown: number): TfbProblem[] {
  if (result > expected * 1.05)
    return [warn('counts', `${shown} ${caption} in the database instead of ${expected} expected. This number is excessively high.`)];
  if (result < expected) return [fail('counts', `Only ${shown} ${caption} in the database out of roughly ${expected} expected.`)];
  return [];
}

/**
 * TFB's verify_queries_count on MySQL (or PostgreSQL, each read as TFB's class for it reads it), to the letter, after a burst of `requests` requests (its concurrency, 512, times
 * one repetition) of `queriesPerRequest` queries each (1 for db and fortunes, 20 for queries and updates), each reading
 * `rowsPerQuery` rows. An updates burst is "bulk" only when its statements, as read (the margin in them), fall within
 * 0.1% of one SELECT a row and one UPDATE a request: the margin's 1.5% puts every batched update outside that, so it is
 * held to one UPDATE a row (twice the SELECTs) and fails. The same run's transaction failures fail it too (a real run
 * of TFB's; its CI runs take them and a second 1.5% on statements, which bench does not).
 */
export function tfbCountProblems(
  before: DatabaseWork,
  after: DatabaseWork,
  shape: { readonly requests: number; readonly queriesPerRequest: number; readonly rowsPerQuery: number; readonly updates: boolean },
  kind: DatabaseKind = 'mysql',
): TfbProblem[] {
  const reader = tfbReaders[kind];
  const [first, last] = [reader.read(before), reader.read(after)];
  const queries = last.queries - first.queries;
  const rows = last.rows - first.rows;
  const rowsUpdated = last.rowsUpdated - first.rowsUpdated;
  const expectedRows = shape.requests * shape.queriesPerRequest * shape.rowsPerQuery;
  let expectedQueries = shape.requests * shape.queriesPerRequest + (shape.updates ? shape.requests : 0);
  const bulk = shape.updates && queries < 1.001 * expectedQueries && queries > 0.999 * expectedQueries;
  if (shape.updates && !bulk) expectedQueries = (expectedQueries - shape.requests) * 2;
  const shown = (value: number) => reader.shown(value);
  return [
    ...countProblem('executed queries', queries, expectedQueries, queries),
    ...countProblem('rows read', rows, expectedRows, shown(rows)),
    ...(shape.updates ? countProblem('rows updated', rowsUpdated * (bulk ? 1.05 : 1), expectedRows, shown(rowsUpdated)) : []),
  ];
}

/**
 * TFB's check that updates write: of the World rows before and after the update cases, how many changed, against
 * the rows the cases asked to update (TFB's rule, for a new random number may equal the old one: 90% or fewer fails,
 * 95% or fewer warns).
 */
export function tfbUpdatedRowsProblems(
  before: ReadonlyMap<number, number>,
  after: ReadonlyMap<number, number>,
  expected: number,
): TfbProblem[] {
  let changed = 0;
  for (const [id, value] of before) if (after.has(id) && after.get(id) !== value) changed++;
  if (changed === 0) return [fail('updates', 'no row of World changed: the updates were not written')];
  if (changed <= expected * 0.9) return [fail('updates', `only ${changed} rows of World changed out of about ${expected} updated`)];
  if (changed <= expected * 0.95) return [warn('updates', `only ${changed} rows of World changed out of about ${expected} updated`)];
  return [];
}
