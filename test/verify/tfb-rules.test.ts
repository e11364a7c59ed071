import http from 'node:http';
import type { AddressInfo } from 'node:net';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinScenarios, createServiceManager, verifyTarget, type Scenario } from '@bench/runner';
import type { DatabaseKind } from '@bench/core';

// TechEmpower's rules against a small server of this test's own: correct on every type, or broken in one way each.
type Fault = 'no-date' | 'frozen-date' | 'text-json' | 'unescaped' | 'unclamped' | 'no-write' | 'cached-reads';

const services = createServiceManager();
const scenarios = new Map(builtinScenarios().flatMap((s): Array<[string, Scenario]> => (s.tfb ? [[s.tfb, s]] : [])));
const servers: http.Server[] = [];
let pool: mysql.Pool;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const randomId = () => 1 + Math.floor(Math.random() * 10_000);

async function answer(url: URL, fault: Fault | undefined): Promise<{ type: string; body: string }> {
  const json = fault === 'text-json' ? 'text/plain' : 'application/json';
  const asked = (name: string) => {
    const n = Number.parseInt(url.searchParams.get(name) ?? '', 10);
    if (fault === 'unclamped') return Number.isNaN(n) ? 1 : n;
    return Number.isNaN(n) ? 1 : Math.min(500, Math.max(1, n));
  };
  const world = async (id: number) => {
    if (fault === 'cached-reads') return { id, randomNumber: 7 };
    const [rows] = await pool.execute('SELECT id, randomNumber FROM World WHERE id = ?', [id]);
    return (rows as Array<{ id: number; randomNumber: number }>)[0];
  };
  const rows = (n: number) => Promise.all(Array.from({ length: n }, () => world(randomId())));
  switch (url.pathname) {
    case '/json':
      return { type: json, body: JSON.stringify({ message: 'Hello, World!' }) };
    case '/plaintext':
      return { type: 'text/plain', body: 'Hello, World!' };
    case '/db':
      return { type: json, body: JSON.stringify(await world(randomId())) };
    case '/queries':
    case '/cached-queries':
      return { type: json, body: JSON.stringify(await rows(asked(url.pathname === '/queries' ? 'queries' : 'count'))) };
    case '/updates': {
      const read = await rows(asked('queries'));
      for (const row of read) {
        row!.randomNumber = randomId();
        if (fault !== 'no-write') await pool.execute('UPDATE World SET randomNumber = ? WHERE id = ?', [row!.randomNumber, row!.id]);
      }
      return { type: json, body: JSON.stringify(read) };
    }
    case '/fortunes': {
      const [found] = await pool.execute('SELECT id, message FROM Fortune');
      const all = [...(found as Array<{ id: number; message: string }>), { id: 0, message: 'Additional fortune added at request time.' }];
      all.sort((a, b) => (a.message < b.message ? -1 : 1));
      const cell = fault === 'unescaped' ? (t: string) => t : escape;
      const table = all.map((f) => `<tr><td>${f.id}</td><td>${cell(f.message)}</td></tr>`).join('');
      return {
        type: 'text/html; charset=utf-8',
        body: `<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>${table}</table></body></html>`,
      };
    }
    default:
      return { type: 'text/plain', body: 'not found' };
  }
}

async function serve(fault?: Fault): Promise<string> {
  const server = http.createServer((request, response) => {
    if (fault === 'no-date') response.sendDate = false;
    answer(new URL(request.url ?? '/', 'http://x'), fault).then(
      ({ type, body }) => {
        response.setHeader('server', 'tfb-rules-test');
        if (fault === 'frozen-date') response.setHeader('date', 'Fri, 27 Nov 2026 08:00:00 GMT');
        response.setHeader('content-type', type);
        response.end(body);
      },
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

// 32, not TFB's 512: at 32 the margin's whole numbers move a count by one at most, within TFB's 5%
const context = { database: (kind: DatabaseKind) => services.database(kind), burst: 32 };
const verify = async (url: string, type: string) => verifyTarget(url, scenarios.get(type)!, undefined, context);

beforeAll(async () => {
  const { mysql: db } = await services.endpointsFor(scenarios.get('db')!);
  pool = mysql.createPool({
    host: db!.host,
    port: db!.port,
    user: db!.user,
    password: db!.password,
    database: db!.database,
    connectionLimit: 8,
  });
}, 60_000);

afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await pool?.end();
  await services.stopAll();
});

describe("TechEmpower's rules in verification", () => {
  it('pass a server that follows them on all seven types, counters included', async () => {
    const url = await serve();
    const results = await Promise.all([...scenarios.keys()].map(async (type) => [type, await verify(url, type)] as const));
    for (const [type, result] of results) {
      expect({ type, problems: result.problems, warnings: result.warnings }).toEqual({ type, problems: [], warnings: [] });
    }
  }, 60_000);

  it('fail each broken rule, named', async () => {
    const cases: Array<[Fault, string, RegExp]> = [
      ['no-date', 'json', /^tfb headers: the Date header is missing$/],
      ['frozen-date', 'plaintext', /^tfb date: the Date header is .* on two requests more than a second apart/],
      ['text-json', 'json', /^tfb content-type: Content-Type is "text\/plain"/],
      [
        'unescaped',
        'fortunes',
        /^tfb fortunes: the page is not TFB's fortunes table once normalised: line 5 is `<tr><td>11<\/td><td><\/td><\/tr>`/,
      ],
      ['unclamped', 'queries', /^tfb body: \/queries\?queries=0: the array holds 0 rows, not 1$/],
      ['no-write', 'updates', /^tfb updates: no row of World changed/],
      ['cached-reads', 'db', /^tfb counts: Only 0 executed queries in the database out of roughly 32 expected\./],
    ];
    const results = await Promise.all(cases.map(async ([fault, type]) => verify(await serve(fault), type)));
    cases.forEach(([fault, type, rule], i) => {
      const result = results[i]!;
      expect({ fault, type, ok: result.ok }).toEqual({ fault, type, ok: false });
      expect(
        result.problems.some((p) => rule.test(p)),
        `${fault}: ${result.problems.join(' | ')}`,
      ).toBe(true);
    });
    // a count past 500 is clamped by TFB's rule: the unclamped server's 501 rows only warn
    const unclamped = results[4]!;
    expect(unclamped.warnings).toContainEqual(
      expect.stringMatching(/^tfb body: \/queries\?queries=501: the array holds 501 rows, not 500$/),
    );
  }, 60_000);
});
