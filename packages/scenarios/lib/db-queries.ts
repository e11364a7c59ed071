import type mysql from 'mysql2/promise';

type Row = Record<string, unknown>;

/** mysql-select: SELECT * FROM testtable, answering the name of the row. */
export async function selectAll(connection: mysql.Connection): Promise<string> {
  const [rows] = await connection.query('SELECT * FROM testtable');
  return String((rows as Row[])[0]?.name);
}

/** db and cache: two SELECTs, answering "name\nid". */
export async function twoSelects(connection: mysql.Connection): Promise<string> {
  const [first] = await connection.query('SELECT name FROM testtable WHERE id = 1');
  const [second] = await connection.query("SELECT id FROM testtable WHERE name = 'test'");
  return `${String((first as Row[])[0]?.name)}\n${String((second as Row[])[0]?.id)}`;
}
