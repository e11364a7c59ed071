import mysql from 'mysql2/promise';
import pg from 'pg';
import type { NodeScenarioContext } from '@bench/core';
import { errors } from '@bench/core/scenario-serving';
import { backend, type Backend } from './backends.js';

/** What TechEmpower's Node handlers ask of a SQL database, whichever one the run gives them (--db). */
export interface Sql {
  /** Rows of a prepared statement, each as its columns in order (SQL written with ? for each value). */
  rows(text: string, values?: readonly unknown[]): Promise<unknown[][]>;
  /** A statement that returns no rows (an UPDATE). */
  run(text: string, values?: readonly unknown[]): Promise<void>;
  /** `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction(work: () => Promise<void>): Promise<void>;
}

/**
 * One transaction at a time on a connection: requests that share a process's one connection (no pool) would otherwise
 * interleave their BEGINs and UPDATEs into one transaction, its rows out of order, which deadlocks against another
 * process's (PostgreSQL then refuses every statement until the rollback).
 */
function oneAtATime(transaction: Sql['transaction']): Sql['transaction'] {
  let last: Promise<unknown> = Promise.resolve();
  return (work) => {
    const turn = last.then(() => transaction(work));
    last = turn.catch(() => undefined);
    return turn;
  };
}

function mysqlSql(connection: mysql.Connection): Sql {
  return {
    async rows(text, values = []) {
      const [rows] = await connection.execute({ sql: text, rowsAsArray: true }, [...values] as mysql.ExecuteValues);
      return rows as unknown[][];
    },
    async run(text, values = []) {
      await connection.query(text, [...values] as mysql.QueryValues);
    },
    transaction: oneAtATime(async (work) => {
      await connection.beginTransaction();
      try {
        await work();
        await connection.commit();
      } catch (error) {
        await connection.rollback().catch(() => undefined);
        throw error;
      }
    }),
  };
}

/** PostgreSQL numbers its parameters ($1, $2, ...); the handlers write ? as MySQL does. */
const numbered = (text: string): string => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

function postgresSql(client: pg.Client): Sql {
  // each statement prepared once per connection, under a name of its own
  const names = new Map<string, string>();
  const named = (text: string) => {
    let name = names.get(text);
    if (name === undefined) names.set(text, (name = `s${names.size}`));
    return name;
  };
  return {
    async rows(text, values = []) {
      const result = await client.query({ name: named(text), text: numbered(text), values: [...values], rowMode: 'array' });
      return result.rows as unknown[][];
    },
    async run(text, values = []) {
      await client.query({ name: named(text), text: numbered(text), values: [...values] });
    },
    transaction: oneAtATime(async (work) => {
      await client.query('BEGIN');
      try {
        await work();
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    }),
  };
}

/** The run's SQL database for a TechEmpower handler: PostgreSQL when the run gives it one, else MariaDB. */
export function sqlBackend(context: NodeScenarioContext): Promise<Backend<Sql>> {
  const found = context.services.postgres ?? context.services.mysql;
  if (!found)
    throw errors.scenarioInvalid(`of ${context.scenario.name}`, 'its handler needs a SQL database, which its services do not list');
  const { host, port, user, password, database } = found;
  if (context.services.postgres) {
    const clients = new WeakMap<Sql, pg.Client>();
    return backend<Sql>(
      {
        async create() {
          const client = new pg.Client({ host, port, user, password, database });
          client.on('error', () => {}); // a lost connection fails the request (and the run counts it)
          await client.connect();
          const sql = postgresSql(client);
          clients.set(sql, client);
          return sql;
        },
        destroy: async (sql) => clients.get(sql)?.end(),
      },
      context.pool,
    );
  }
  const connections = new WeakMap<Sql, mysql.Connection>();
  return backend<Sql>(
    {
      async create() {
        const connection = await mysql.createConnection({ host, port, user, password, database });
        const sql = mysqlSql(connection);
        connections.set(sql, connection);
        return sql;
      },
      destroy: async (sql) => connections.get(sql)?.end(),
    },
    context.pool,
  );
}
