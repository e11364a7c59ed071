import net from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDocumentSchema, type CellResult } from '@bench/core';
import { runCli } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// What bench puts on the wire, read as a server reads it: this server keeps the head of every request it reads as
// its bytes (latin1: one character a byte), and answers by path. POST /login gives a token, a good one to a run's
// first login (verification's) and then one holding CR LF; .../text a chunked body of non-ASCII text with a character
// cut between its two chunks; .../moved a 302 to /landing; anything else "ok".
const TEXT = 'Zürich, Genève, 東京';
const TEXT_BYTES = Buffer.byteLength(TEXT); // 24 bytes, 18 UTF-16 units
const cut = Buffer.from(TEXT).indexOf(Buffer.from('ü')) + 1; // inside ü's two bytes
const MOVED = 'see /landing';

let heads: string[] = [];
let logins = 0;
let base = '';
const server = net.createServer((socket) => {
  let buffered = Buffer.alloc(0);
  socket.on('error', () => {});
  socket.on('data', (data) => {
    buffered = Buffer.concat([buffered, data]);
    for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
      const head = buffered.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffered.length < end + 4 + length) return;
      buffered = buffered.subarray(end + 4 + length);
      heads.push(head);
      socket.write(answer(head.split(' ')[1] ?? ''));
    }
  });
});

function answer(target: string): Buffer {
  const ok = (body: string, status = '200 OK', extra = '') =>
    Buffer.from(
      `HTTP/1.1 ${status}\r\nDate: ${new Date().toUTCString()}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`,
    );
  if (target === '/login') return ok(JSON.stringify({ token: logins++ === 0 ? 'good' : 'T\r\nX-Injected: 1' }));
  if (target.endsWith('/moved')) return ok(MOVED, '302 Found', 'Location: /landing\r\n');
  if (!target.endsWith('/text')) return ok('ok');
  const bytes = Buffer.from(TEXT);
  const chunk = (part: Buffer) => Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]);
  return Buffer.concat([
    Buffer.from(`HTTP/1.1 200 OK\r\nDate: ${new Date().toUTCString()}\r\nTransfer-Encoding: chunked\r\n\r\n`),
    chunk(bytes.subarray(0, cut)),
    chunk(bytes.subarray(cut)),
    Buffer.from('0\r\n\r\n'),
  ]);
}

const dir = testTempDir('request-bytes');
const config = path.join(dir, 'bench.config.mjs');

/** The scenario a request was sent for, by its path's first segment. */
const SCENARIO_OF: Record<string, string> = {
  city: 'cities',
  login: 'session',
  items: 'session',
  flow: 'answers',
  text: 'text',
  moved: 'moved',
  landing: 'followed',
};
const scenarioOf = (head: string) => SCENARIO_OF[/^\w+ \/(\w+)/.exec(head)?.[1] ?? ''] ?? 'other';

/** One bench run of an engine: its cells, and the heads of the requests the server read, by scenario. */
interface EngineRun {
  readonly cells: Record<string, CellResult>;
  readonly heads: Record<string, string[]>;
}
const runs: Record<string, EngineRun> = {};

// Every engine runs the scenarios it takes in one bench run (each costs seconds to start)
const ENGINE_RUNS: [string, string[], string[]][] = [
  ['autocannon', ['cities', 'session', 'answers', 'text', 'moved'], ['--engine', 'autocannon', '-c', '1', '-n', '6']],
  ['open loop', ['cities', 'session'], ['--rate', '10', '-d', '1', '-c', '1']],
  ['wrk', ['cities'], ['--engine', 'wrk', '-c', '1', '-d', '1']],
  ['k6', ['cities', 'session', 'answers', 'text', 'moved'], ['--engine', 'k6', '-c', '1', '-n', '3']],
  ['wire', ['moved'], ['--engine', 'wire', '-c', '1', '-d', '1']],
];

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  writeFileSync(path.join(dir, 'cities.csv'), 'name\nNew York\nZürich\nAC/DC\n');
  writeFileSync(
    config,
    `export default ${JSON.stringify({
      targets: [{ name: 'raw', url: base }],
      scenarios: [
        { name: 'cities', path: '/city/{{row.name}}', headers: { 'x-city': '{{row.name}}' }, data: { file: 'cities.csv' } },
        {
          name: 'session',
          steps: [
            { name: 'login', once: true, method: 'POST', path: '/login', capture: { token: { json: 'token' } } },
            { name: 'get', path: '/items', headers: { authorization: 'Bearer {{token}}' } },
          ],
        },
        {
          name: 'answers',
          steps: [
            { name: 'text', path: '/flow/text', expect: { bodyMatches: 'Gen.ve' } },
            { name: 'moved', path: '/flow/moved', expect: { status: 302 } },
          ],
        },
        { name: 'text', path: '/text', expect: { body: TEXT } },
        { name: 'moved', path: '/moved', expect: { status: 302 } },
      ],
      reporters: [['json', { out: 'results.json' }]],
    })};\n`,
  );
  for (const [engine, scenarios, flags] of ENGINE_RUNS) {
    heads = [];
    logins = 0;
    const done = await runCli(['run', ...scenarios, '--config', config, '-w', '0', ...flags], { cwd: dir });
    expect(done.code, `${engine}: ${done.stderr}`).toBe(0);
    const doc = runDocumentSchema.parse(JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')));
    const byScenario: Record<string, string[]> = {};
    for (const head of heads) (byScenario[scenarioOf(head)] ??= []).push(head);
    runs[engine] = { cells: Object.fromEntries(doc.results.map((cell) => [cell.scenario, cell])), heads: byScenario };
  }
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const requestLines = (heads: readonly string[] = []) => heads.map((head) => head.split('\r\n')[0]!);

describe('requests are well formed or refused', () => {
  it("percent-encodes a data row's value in a path, sends it in a header as UTF-8, as verification does, on every engine", () => {
    for (const engine of ['autocannon', 'open loop', 'wrk', 'k6']) {
      const { cells, heads } = runs[engine]!;
      expect(cells.cities!.failed, engine).toBe(0);
      const lines = requestLines(heads.cities);
      // the first is verification's
      expect(lines.length, engine).toBeGreaterThan(3);
      expect(new Set(lines), engine).toEqual(
        new Set(['GET /city/New%20York HTTP/1.1', 'GET /city/Z%C3%BCrich HTTP/1.1', 'GET /city/AC%2FDC HTTP/1.1']),
      );
      // the head read as latin1: UTF-8's two bytes of ü are two characters
      const cities = heads.cities!.map((head) => /^x-city: (.*)$/im.exec(head)?.[1]);
      expect(new Set(cities), engine).toEqual(new Set(['New York', Buffer.from('Zürich').toString('latin1'), 'AC/DC']));
    }
  });

  it('refuses a data row holding CR LF in a header before load: one line, exit 2, nothing sent', async () => {
    heads = [];
    writeFileSync(path.join(dir, 'bad.csv'), 'city\noslo\n"New\r\nYork"\n');
    const bad = path.join(dir, 'bad.config.mjs');
    writeFileSync(
      bad,
      `export default ${JSON.stringify({
        targets: [{ name: 'raw', url: base }],
        scenarios: [{ name: 'bad', path: '/city', headers: { 'x-city': '{{row.city}}' }, data: { file: 'bad.csv' } }],
      })};\n`,
    );
    const done = await runCli(['run', 'bad', '--config', bad, '-w', '0', '-c', '1', '-n', '5'], { cwd: dir });
    expect(done.code).toBe(2);
    expect(done.stderr).toBe(
      'bench: BENCH_ERR_CONFIG: config bad.config.mjs: scenario "bad", step "bad": header x-city: {{row.city}} (data file bad.csv, row 2, column city) holds CR, LF or NUL, which would end the header; fix the data file\n',
    );
    expect(heads).toEqual([]);
  });

  it('fails a request whose captured value holds CR LF, with its sample, on autocannon, the open loop and k6; nothing is split', () => {
    for (const engine of ['autocannon', 'open loop', 'k6']) {
      const { cells, heads } = runs[engine]!;
      const get = cells.session!.steps!.find((step) => step.name === 'get')!;
      expect(get.failedBreakdown.exceptions, engine).toBeGreaterThan(0);
      expect(cells.session!.failed, engine).toBe(get.failedBreakdown.exceptions);
      expect(get.errorSamples, engine).toEqual([
        'step get: header authorization: {{token}} (captured by step login) holds CR, LF or NUL, which would end the header; the request was not sent',
      ]);
      // verification's login and get (its token a good one), then logins only; no header was split in two
      const lines = requestLines(heads.session);
      expect(lines.slice(0, 2), engine).toEqual(['POST /login HTTP/1.1', 'GET /items HTTP/1.1']);
      expect(new Set(lines.slice(2)), engine).toEqual(new Set(['POST /login HTTP/1.1']));
      expect(
        heads.session!.filter((head) => /x-injected/i.test(head)),
        engine,
      ).toEqual([]);
    }
  });

  it('counts non-ASCII bodies in bytes and a 302 as the answer on autocannon and k6, and a 302 on wire', () => {
    for (const engine of ['autocannon', 'k6']) {
      const { cells, heads } = runs[engine]!;
      for (const scenario of ['answers', 'text', 'moved']) expect(cells[scenario]!.failed, `${engine} ${scenario}`).toBe(0);
      const steps = Object.fromEntries(cells.answers!.steps!.map((step) => [step.name, step]));
      expect(cells.answers!.bytes.body, engine).toBe(steps.text!.requests * TEXT_BYTES + steps.moved!.requests * MOVED.length);
      expect(Object.keys(steps.moved!.statusCodes), engine).toEqual(['302']);
      expect(cells.text!.bytes.body, engine).toBe(cells.text!.requests * TEXT_BYTES);
      expect(Object.keys(cells.moved!.statusCodes), engine).toEqual(['302']);
      // nothing followed the redirects
      expect(heads.followed, engine).toBeUndefined();
    }
    const { cells, heads } = runs.wire!;
    expect(cells.moved!.failed).toBe(0);
    expect(Object.keys(cells.moved!.statusCodes)).toEqual(['302']);
    expect(heads.followed).toBeUndefined();
  });
});
