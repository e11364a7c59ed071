import { describe, expect, it } from 'vitest';
import { tfbDbProblems, tfbJsonProblems, tfbPlaintextProblems, tfbWorldListProblems } from './bodies.js';
import { tfbCountProblems, tfbMysqlReading, tfbUpdatedRowsProblems } from './counts.js';
import { expectedFortunesTable, normaliseFortunesHtml, TFB_ADDED_FORTUNE, TFB_FORTUNES, tfbFortunesProblems } from './fortunes.js';
import { tfbDateChangeProblems, tfbHeaderProblems } from './headers.js';
import { tfbRowCount } from './test-types.js';

const date = 'Fri, 27 Nov 2026 08:00:00 GMT';
const headers = { server: 'x', date, 'content-type': 'application/json', 'content-length': '27' };
const severities = (problems: ReadonlyArray<{ severity: string; rule: string }>) => problems.map((p) => `${p.severity} ${p.rule}`);

describe("TFB's header rules", () => {
  it('pass a complete answer', () => {
    expect(tfbHeaderProblems('json', headers)).toEqual([]);
    expect(tfbHeaderProblems('html', { ...headers, 'content-type': 'text/html; charset=UTF-8' })).toEqual([]);
  });

  it('fail a missing Server, Date or Content-Type, and an answer that says no size', () => {
    const { server: _s, date: _d, 'content-length': _l, ...rest } = headers;
    const problems = tfbHeaderProblems('json', rest);
    expect(problems.map((p) => p.message)).toEqual([
      'the Server header is missing',
      'the Date header is missing',
      'neither Content-Length nor Transfer-Encoding says the size of the body',
    ]);
    expect(tfbHeaderProblems('json', { ...rest, server: 'x', date, 'transfer-encoding': 'chunked' })).toEqual([]);
  });

  it('fail a wrong Content-Type for the type, and warn of a Date that is not an HTTP date', () => {
    expect(severities(tfbHeaderProblems('json', { ...headers, 'content-type': 'text/plain' }))).toEqual(['fail content-type']);
    expect(severities(tfbHeaderProblems('html', { ...headers, 'content-type': 'text/html' }))).toEqual(['fail content-type']);
    expect(severities(tfbHeaderProblems('json', { ...headers, date: '2026-11-27T08:00:00Z' }))).toEqual(['warn date']);
  });

  it('fail a Date that does not change between two answers a second apart', () => {
    expect(severities(tfbDateChangeProblems({ date }, { date }))).toEqual(['fail date']);
    expect(tfbDateChangeProblems({ date }, { date: 'Fri, 27 Nov 2026 08:00:01 GMT' })).toEqual([]);
  });
});

describe("TFB's body rules", () => {
  it('json: the hello object, without regard to case; more keys warn', () => {
    expect(tfbJsonProblems('{"message":"Hello, World!"}')).toEqual([]);
    expect(tfbJsonProblems('{"Message":"hello, world!"}')).toEqual([]);
    expect(severities(tfbJsonProblems('{"message":"Hello, World!","x":1}'))).toEqual(['warn body']);
    expect(severities(tfbJsonProblems('{"message":"Hello"}'))).toEqual(['fail body']);
    expect(severities(tfbJsonProblems('Hello, World!'))).toEqual(['fail body']);
  });

  it('plaintext: Hello, World! and nothing more', () => {
    expect(tfbPlaintextProblems('Hello, World!')).toEqual([]);
    expect(severities(tfbPlaintextProblems('Hello, World!\n'))).toEqual(['warn body']);
    expect(severities(tfbPlaintextProblems('Hello World'))).toEqual(['fail body']);
  });

  it('db: one World row as an object; an array of one warns', () => {
    expect(tfbDbProblems('{"id":3,"randomNumber":42}')).toEqual([]);
    expect(severities(tfbDbProblems('[{"id":3,"randomNumber":42}]'))).toEqual(['warn body']);
    expect(severities(tfbDbProblems('{"id":3}'))).toEqual(['fail body']);
    expect(severities(tfbDbProblems('{"id":"x","randomNumber":1}'))).toEqual(['fail body']);
  });

  it('queries: as many rows as asked, each a World row', () => {
    const rows = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: i + 1, randomNumber: 7 })));
    expect(tfbWorldListProblems(rows(2), 2)).toEqual([]);
    expect(severities(tfbWorldListProblems(rows(501), 500, 'warn'))).toEqual(['warn body']);
    expect(severities(tfbWorldListProblems('{"id":1,"randomNumber":1}', 1))).toEqual(['fail body']);
  });

  it('clamps the query parameter as TFB does: 0, foo and empty give 1, 501 gives 500', () => {
    expect(['2', '0', 'foo', '501', '', '-3', '20'].map(tfbRowCount)).toEqual([2, 1, 1, 500, 1, 1, 20]);
  });
});

/** A fortunes page as a stack writes it, with its own escaping of each message. */
function fortunesPage(escape: (text: string) => string, extraHead = ''): string {
  const rows = [...TFB_FORTUNES, TFB_ADDED_FORTUNE].sort((a, b) => (a.message < b.message ? -1 : 1));
  return `<!DOCTYPE html><html><head>${extraHead}<title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>${rows
    .map((r) => `<tr><td>${r.id}</td><td>${escape(r.message)}</td></tr>`)
    .join('')}</table></body></html>`;
}
const htmlspecialchars = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
const minimal = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

describe("TFB's fortunes table", () => {
  it('is the twelve rows and the added one, sorted by message, the script escaped', () => {
    const table = expectedFortunesTable().split('\n');
    expect(table).toHaveLength(4 + 13 + 1);
    expect(table[4]).toBe(
      '<tr><td>11</td><td>&lt;script&gt;alert(&quot;This should not be displayed in a browser alert box.&quot;);&lt;/script&gt;</td></tr>',
    );
    expect(table[16]).toBe(
      '<tr><td>12</td><td>\u30d5\u30ec\u30fc\u30e0\u30ef\u30fc\u30af\u306e\u30d9\u30f3\u30c1\u30de\u30fc\u30af</td></tr>',
    );
  });

  it('passes every correct escaping, and a template with meta tags and line breaks', () => {
    expect(tfbFortunesProblems(fortunesPage(htmlspecialchars))).toEqual([]);
    expect(tfbFortunesProblems(fortunesPage(minimal, '<meta charset="utf-8">\n'))).toEqual([]);
    expect(normaliseFortunesHtml('<TD CLASS="x">a &#x27;b&#39; &#43;&mdash;</td>')).toBe('<td>a &apos;b&apos;+\u2014</td>');
  });

  it('fails unescaped messages, a missing row and an unsorted table', () => {
    expect(severities(tfbFortunesProblems(fortunesPage((t) => t)))).toEqual(['fail fortunes']);
    expect(tfbFortunesProblems(fortunesPage((t) => t))[0]?.message).toMatch(/line 5 is `<tr><td>11<\/td><td><\/td><\/tr>`/);
    expect(severities(tfbFortunesProblems(fortunesPage(htmlspecialchars).replace(/<tr><td>0<\/td>.*?<\/tr>/, '')))).toEqual([
      'fail fortunes',
    ]);
    const unsorted = fortunesPage(htmlspecialchars).replace(/(<tr><td>4<\/td>.*?<\/tr>)(<tr><td>5<\/td>.*?<\/tr>)/, '$2$1');
    expect(severities(tfbFortunesProblems(unsorted))).toEqual(['fail fortunes']);
  });
});

describe("TFB's database counts", () => {
  const queries = { requests: 512, queriesPerRequest: 20, rowsPerQuery: 1, updates: false };
  const updates = { ...queries, updates: true };
  // cumulative counters before a burst, and after it did `work` more
  const before = { selects: 5_000, updates: 700, rowsRead: 9_000, rowsUpdated: 700 };
  const after = (work: { selects: number; updates: number; rowsRead: number; rowsUpdated: number }) => ({
    selects: before.selects + work.selects,
    updates: before.updates + work.updates,
    rowsRead: before.rowsRead + work.rowsRead,
    rowsUpdated: before.rowsUpdated + work.rowsUpdated,
  });
  const messages = (problems: ReturnType<typeof tfbCountProblems>) => problems.map((p) => `${p.severity}: ${p.message}`);

  it("reads each counter as TFB's MySQL class does: times 1.015, cut to a whole number", () => {
    expect(tfbMysqlReading({ selects: 10_752, updates: 0, rowsRead: 0, rowsUpdated: 0 }).queries).toBe(10_913);
    expect(tfbMysqlReading({ selects: 10_240, updates: 512, rowsRead: 20_480, rowsUpdated: 10_240 })).toEqual({
      queries: 10_393 + 519,
      rows: 10_393,
      rowsUpdated: 10_393,
    });
  });

  it("pass the exact work, fail less, warn of more than 5% over, in TFB's words", () => {
    expect(tfbCountProblems(before, after({ selects: 10_240, updates: 0, rowsRead: 10_240, rowsUpdated: 0 }), queries)).toEqual([]);
    expect(messages(tfbCountProblems(before, after({ selects: 10_000, updates: 0, rowsRead: 10_240, rowsUpdated: 0 }), queries))).toEqual([
      'fail: Only 10150 executed queries in the database out of roughly 10240 expected.',
    ]);
    expect(messages(tfbCountProblems(before, after({ selects: 20_480, updates: 0, rowsRead: 10_240, rowsUpdated: 0 }), queries))).toEqual([
      'warn: 20788 executed queries in the database instead of 10240 expected. This number is excessively high.',
    ]);
    // rows may fall short by TFB's margin (1.5%), and read back without it
    expect(tfbCountProblems(before, after({ selects: 10_240, updates: 0, rowsRead: 10_100, rowsUpdated: 0 }), queries)).toEqual([]);
    expect(messages(tfbCountProblems(before, after({ selects: 10_240, updates: 0, rowsRead: 10_000, rowsUpdated: 0 }), queries))).toEqual([
      'fail: Only 10000 rows read in the database out of roughly 10240 expected.',
    ]);
  });

  it('hold updates to one UPDATE a row: a batched update is never read as bulk through the margin, and fails', () => {
    // one UPDATE a row (an UPDATE reads its row too): passes
    const perRow = after({ selects: 10_240, updates: 10_240, rowsRead: 20_480, rowsUpdated: 10_240 });
    expect(tfbCountProblems(before, perRow, updates)).toEqual([]);
    // one UPDATE a request, the rows in one statement: 10,752 statements read as 10,914 (as TFB read them here), outside 0.1% of 10,752
    const batched = after({ selects: 10_240, updates: 512, rowsRead: 20_480, rowsUpdated: 10_240 });
    expect(messages(tfbCountProblems(before, batched, updates))).toEqual([
      'fail: Only 10914 executed queries in the database out of roughly 20480 expected.',
    ]);
    // updates that write nothing
    expect(messages(tfbCountProblems(before, after({ selects: 10_240, updates: 0, rowsRead: 10_240, rowsUpdated: 0 }), updates))).toEqual([
      'fail: Only 10394 executed queries in the database out of roughly 20480 expected.',
      'fail: Only 0 rows updated in the database out of roughly 10240 expected.',
    ]);
  });

  it("read PostgreSQL as TFB's PostgreSQL class does: every statement naming the table, no margin", () => {
    // one UPDATE a row: 20 SELECTs and 20 UPDATEs a request, counted exactly
    const perRow = after({ selects: 10_240, updates: 10_240, rowsRead: 10_240, rowsUpdated: 10_240 });
    expect(tfbCountProblems(before, perRow, updates, 'postgres')).toEqual([]);
    // one batched UPDATE a request: within 0.1% of 21 statements a request, so bulk (no margin puts it outside), and passes
    const batched = after({ selects: 10_240, updates: 512, rowsRead: 10_240, rowsUpdated: 10_240 });
    expect(tfbCountProblems(before, batched, updates, 'postgres')).toEqual([]);
    // a row drawn twice and written once falls short by as many statements: with no margin, it fails
    const deduplicated = after({ selects: 10_240, updates: 10_230, rowsRead: 10_240, rowsUpdated: 10_230 });
    expect(messages(tfbCountProblems(before, deduplicated, updates, 'postgres'))).toEqual([
      'fail: Only 20470 executed queries in the database out of roughly 20480 expected.',
      'fail: Only 10230 rows updated in the database out of roughly 10240 expected.',
    ]);
    // the same on MySQL passes: its margin covers the ten
    expect(tfbCountProblems(before, after({ selects: 10_240, updates: 10_230, rowsRead: 20_470, rowsUpdated: 10_230 }), updates)).toEqual(
      [],
    );
    // rows read are printed as read, with no margin to take back
    expect(
      messages(tfbCountProblems(before, after({ selects: 10_240, updates: 0, rowsRead: 10_000, rowsUpdated: 0 }), queries, 'postgres')),
    ).toEqual(['fail: Only 10000 rows read in the database out of roughly 10240 expected.']);
  });

  it('fail updates that change no row, or too few', () => {
    const before = new Map(Array.from({ length: 1000 }, (_, i) => [i + 1, 5] as [number, number]));
    const changed = (n: number) => new Map([...before].map(([id, v]) => [id, id <= n ? v + 1 : v] as [number, number]));
    expect(tfbUpdatedRowsProblems(before, changed(500), 500)).toEqual([]);
    expect(severities(tfbUpdatedRowsProblems(before, before, 500))).toEqual(['fail updates']);
    expect(severities(tfbUpdatedRowsProblems(before, changed(400), 500))).toEqual(['fail updates']);
    expect(severities(tfbUpdatedRowsProblems(before, changed(470), 500))).toEqual(['warn updates']);
  });
});
