// What the Node handlers of TechEmpower's test types share: TFB's rules for a request, written once for Node.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Sql } from './sql.js';

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
export async function worldRow(sql: Sql, id: number): Promise<World> {
  const [row] = await sql.rows('SELECT id, randomNumber FROM World WHERE id = ?', [id]);
  return { id: Number(row?.[0]), randomNumber: Number(row?.[1]) };
}

/** `n` World rows by random ids, one query each. */
export async function worldRows(sql: Sql, n: number): Promise<World[]> {
  const rows: World[] = [];
  for (let i = 0; i < n; i++) rows.push(await worldRow(sql, randomWorldId()));
  return rows;
}

/** Every row of World (cached-queries fills its cache with them). */
export async function worldTable(sql: Sql): Promise<World[]> {
  return (await sql.rows('SELECT id, randomNumber FROM World')).map(([id, number]) => ({ id: Number(id), randomNumber: Number(number) }));
}

/** Every row of Fortune. */
export async function fortuneRows(sql: Sql): Promise<Array<{ id: number; message: string }>> {
  return (await sql.rows('SELECT id, message FROM Fortune')).map(([id, message]) => ({ id: Number(id), message: String(message) }));
}

/**
 * Writes the rows' new numbers, one UPDATE for each row read, in one transaction, ids in order (each transaction then
 * locks its rows in the same order, so concurrent ones cannot deadlock; an id drawn twice is written twice, its last
 * number last). TFB's verifier counts one UPDATE a row read: on MySQL with a margin no batched UPDATE passes, on
 * PostgreSQL with none, so a row drawn twice and written once would fall short.
 */
export async function writeWorldRows(sql: Sql, rows: readonly World[]): Promise<void> {
  const ordered = [...rows].sort((a, b) => a.id - b.id);
  await sql.transaction(async () => {
    for (const row of ordered) await sql.run('UPDATE World SET randomNumber = ? WHERE id = ?', [row.randomNumber, row.id]);
  });
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
