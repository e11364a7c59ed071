// What the Node handlers of TechEmpower's test types share: TFB's rules for a request, written once for Node.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type mysql from 'mysql2/promise';

export const WORLD_ROWS = 10_000;

/** A random id of World, 1..10000. */
export const randomWorldId = (): number => 1 + Math.floor(Math.random() * WORLD_ROWS);

/** A random number for a row, 1..10000. */
export const randomNumber = randomWorldId;

/** The rows a queries, updates or cached-queries request asks for: the parameter as a whole number, clamped to 1..500; else 1. */
export function rowsAsked(request: FastifyRequest, parameter: 'queries' | 'count'): number {
  const value = (request.query as Record<string, unknown>)[parameter];
  const n = typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number.parseInt(value, 10) : 1;
  return Math.min(500, Math.max(1, n));
}

/** Every TFB answer names its server (Node's http already sends Date, changing every second). */
export const SERVER = 'Fastify';

/** Sends a value serialised as JSON on this request, with the headers TFB asks for. */
export function sendJson(reply: FastifyReply, value: unknown): void {
  reply.header('server', SERVER).type('application/json').send(JSON.stringify(value));
}

export interface World {
  id: number;
  randomNumber: number;
}

/** One World row by id (a prepared statement). */
export async function worldRow(connection: mysql.Connection, id: number): Promise<World> {
  const [rows] = await connection.execute('SELECT id, randomNumber FROM World WHERE id = ?', [id]);
  const row = (rows as World[])[0];
  return { id: Number(row?.id), randomNumber: Number(row?.randomNumber) };
}

/** `n` World rows by random ids, one query each. */
export async function worldRows(connection: mysql.Connection, n: number): Promise<World[]> {
  const rows: World[] = [];
  for (let i = 0; i < n; i++) rows.push(await worldRow(connection, randomWorldId()));
  return rows;
}

/**
 * Writes the rows' new numbers, one UPDATE a row in one transaction, ids in order (each transaction then locks its rows
 * in the same order, so concurrent ones cannot deadlock); an id drawn twice is written once, with its last number.
 * TFB's verifier on MySQL counts statements with a margin that no batched UPDATE passes: one a row is what it takes.
 */
export async function writeWorldRows(connection: mysql.Connection, rows: readonly World[]): Promise<void> {
  const numbers = new Map(rows.map((row) => [row.id, row.randomNumber]));
  const ids = [...numbers.keys()].sort((a, b) => a - b);
  await connection.beginTransaction();
  try {
    for (const id of ids) await connection.query('UPDATE World SET randomNumber = ? WHERE id = ?', [numbers.get(id), id]);
    await connection.commit();
  } catch (error) {
    await connection.rollback().catch(() => undefined);
    throw error;
  }
}

/** HTML's escapes for text in an element: &, <, >, " and '. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** The fortunes page: every row, sorted by message, in TFB's table. */
export function fortunesPage(rows: ReadonlyArray<{ id: number; message: string }>): string {
  const sorted = [...rows].sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  return `<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>${sorted
    .map((row) => `<tr><td>${row.id}</td><td>${escapeHtml(row.message)}</td></tr>`)
    .join('')}</table></body></html>`;
}
