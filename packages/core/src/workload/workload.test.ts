import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWorkload, describeWorkload, type ScenarioObjectInput } from './build-workload.js';
import { CompiledWorkload, type RefusedRequest, type RenderedRequest } from './flow-cursor.js';
import { compileTemplate, templateProblems } from './template.js';
import { compileCapture } from './capture.js';
import { workloadNeeds } from './workload-needs.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-workload-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fail = (detail: string): never => {
  throw new Error(detail);
};
const build = (entry: ScenarioObjectInput, others: ScenarioObjectInput[] = []) =>
  buildWorkload(entry, { entries: new Map([entry, ...others].map((e) => [e.name, e])), dir, fail });
let n = 0;
const source = { counter: () => ++n, random: () => 0.5 };
/** A request the cursor did not refuse. */
const sent = (request: RenderedRequest | RefusedRequest): RenderedRequest => {
  if ('refused' in request) throw new Error(request.refused);
  return request;
};

describe('templates', () => {
  it('renders counters, ranges, picks, uuids, rows and variables; a fixed text stays fixed', () => {
    const state = { vars: { token: 'abc' }, row: { user: 'ann' } };
    expect(compileTemplate('/items/{{counter}}', source).render(state)).toBe('/items/1');
    expect(compileTemplate('{{randomInt 10 20}}', source).render(state)).toBe('15');
    expect(compileTemplate('{{pick red green blue}}', source).render(state)).toBe('green');
    expect(compileTemplate('{{uuid}}', source).render(state)).toMatch(/^[0-9a-f-]{36}$/);
    expect(compileTemplate('Bearer {{ token }} for {{row.user}}', source).render(state)).toBe('Bearer abc for ann');
    expect(compileTemplate('/plain', source).fixed).toBe('/plain');
  });

  it('names what is wrong: an unknown function, bad arguments, a column the file lacks', () => {
    const scope = { vars: new Set(['token']), columns: ['user'] };
    expect(templateProblems('/x/{{rand 1 2}}', scope)[0]).toMatch(/unknown template function "rand"/);
    expect(templateProblems('{{randomInt 5 1}}', scope)[0]).toMatch(/randomInt takes two integers/);
    expect(templateProblems('{{row.email}}', scope)[0]).toMatch(/no column "email" \(it has user\)/);
    expect(templateProblems('{{row.user}} {{token}} {{counter}}', scope)).toEqual([]);
    expect(templateProblems('{{row.user}}', { vars: new Set() })[0]).toMatch(/names no data file/);
    expect(templateProblems('/{{raw}}', scope)[0]).toMatch(/^\{\{raw\}\}: raw takes one value to send as it is/);
    expect(templateProblems('/{{raw row.user}}/{{raw token}}', scope)).toEqual([]);
  });

  it("percent-encodes a path's values as URI components; raw sends one as it is; text, headers and bodies as written", () => {
    const state = { vars: { q: 'a&b=c/d' }, row: { name: 'Zürich', city: 'New York', done: 'x%2Fy' } };
    const path = (text: string) => compileTemplate(text, source, { place: 'path' }).render(state);
    expect(path('/city/{{row.name}}?q={{q}}')).toBe('/city/Z%C3%BCrich?q=a%26b%3Dc%2Fd');
    expect(path('/city/{{row.city}}')).toBe('/city/New%20York');
    expect(path('/{{pick a/b}}/{{raw row.done}}/{{raw q}}')).toBe('/a%2Fb/x%2Fy/a&b=c/d');
    // a lone surrogate has no UTF-8: sent as U+FFFD
    expect(compileTemplate('/{{v}}', source, { place: 'path' }).render({ vars: { v: 'a\uD800' } })).toBe('/a%EF%BF%BD');
    expect(compileTemplate('{{row.city}}', source, { place: 'header' }).render(state)).toBe('New York');
    // a header as its UTF-8 bytes, a character a byte, which Node's clients write as they are
    expect(compileTemplate('à {{row.name}}', source, { place: 'header' }).render(state)).toBe(Buffer.from('à Zürich').toString('latin1'));
    expect(compileTemplate('à', source, { place: 'header' }).fixed).toBe('Ã\u00a0');
    expect(compileTemplate('{{row.name}}', source).render(state)).toBe('Zürich');
  });
});

describe('captures', () => {
  it('take a JSON path, a header or a regular expression group', () => {
    expect(compileCapture({ json: 'data.items[1].id' })({}, '{"data":{"items":[{"id":1},{"id":7}]}}')).toBe('7');
    expect(compileCapture({ json: '$.token' })({}, '{"token":"t1"}')).toBe('t1');
    expect(compileCapture({ header: 'X-Token' })({ 'x-token': 'h' }, '')).toBe('h');
    expect(compileCapture({ regex: 'id=(\\d+)' })({}, 'ok id=42')).toBe('42');
    expect(compileCapture({ json: 'missing' })({}, '{}')).toBeUndefined();
  });
});

describe('workloads', () => {
  const login = {
    name: 'login',
    once: true,
    method: 'POST',
    path: '/login',
    body: { user: 'u' },
    capture: { token: { json: 'token' } },
  };
  const flow: ScenarioObjectInput = {
    name: 'shop',
    steps: [
      login,
      {
        mix: [
          { name: 'read', weight: 80, path: '/items/{{randomInt 1 9}}', headers: { authorization: 'Bearer {{token}}' } },
          { name: 'write', weight: 20, method: 'POST', path: '/items', body: { name: 'n{{counter}}' } },
        ],
      },
    ],
  };

  it('runs once steps first, then the mix in its shares exactly over each round of weights', () => {
    const workload = build(flow);
    expect(describeWorkload(workload)).toBe('login once per connection, then read 80% / write 20%');
    expect(workloadNeeds(workload)).toEqual(['templates', 'flows', 'mixes']);
    const compiled = new CompiledWorkload(workload, { counter: () => 1, random: Math.random });
    const cursor = compiled.connection();
    const first = sent(cursor.next());
    expect(first.step.name).toBe('login');
    expect(first.body).toBe('{"user":"u"}');
    // a once step is sent again until its answer passes
    expect(cursor.answered(first.step, 500, {}, '', 0)?.message).toMatch(/status 500/);
    const again = cursor.next();
    expect(again.step.name).toBe('login');
    expect(cursor.answered(again.step, 200, {}, '{"token":"T"}', 13)).toBeUndefined();
    const names: string[] = [];
    for (let i = 0; i < 100; i++) {
      const request = sent(cursor.next());
      names.push(request.step.name);
      if (request.step.name === 'read') expect(request.headers.authorization).toBe('Bearer T');
    }
    expect(names.filter((name) => name === 'read')).toHaveLength(80);
  });

  it('masks the values a connection captured in the messages its steps make (a body that echoes the token)', () => {
    const cursor = new CompiledWorkload(build(flow), { counter: () => 1, random: Math.random }).connection();
    const login = sent(cursor.next());
    expect(cursor.answered(login.step, 200, {}, '{"token":"tok-secret-77"}', 25)).toBeUndefined();
    const read = (() => {
      for (;;) {
        const request = sent(cursor.next());
        if (request.step.name === 'read') return request;
        cursor.answered(request.step, 200, {}, '{}', 2);
      }
    })();
    expect(read.headers.authorization).toBe('Bearer tok-secret-77');
    const problem = cursor.answered(read.step, 401, {}, 'bad token tok-secret-77', 23);
    expect(problem?.message).toMatch(/status 401/);
    const echoed = cursor.answered(login.step, 200, {}, '{"error":"tok-secret-77 expired"}', 33);
    expect(echoed?.message).toContain('found nothing in: {"error":"[redacted] expired"}');
    expect(echoed?.message).not.toContain('tok-secret-77');
  });

  it('hides a secret capture in its escaped forms and the piece a cut sample leaves; an ordinary one whole only', () => {
    const secretFlow: ScenarioObjectInput = {
      name: 'session',
      steps: [
        { name: 'login', once: true, method: 'POST', path: '/login', capture: { token: { json: 'token', secret: true } } },
        { name: 'read', path: '/me', headers: { authorization: 'Bearer {{token}}' }, capture: { id: { json: 'id' } } },
      ],
    };
    const cursor = new CompiledWorkload(build(secretFlow), { counter: () => 1, random: Math.random }).connection();
    const token = 'se"cret\\token-0123456789';
    const login = sent(cursor.next());
    expect(cursor.answered(login.step, 200, {}, JSON.stringify({ token }), 40)).toBeUndefined();
    const read = sent(cursor.next());
    expect(read.headers.authorization).toBe(`Bearer ${token}`);
    expect(cursor.answered(read.step, 200, {}, '{"id":"order-1234"}', 19)).toBeUndefined();
    // the server echoes the token JSON-escaped, and a sample is cut in the middle of it
    const cut = JSON.stringify({ token }).slice(0, 22);
    const problem = cursor.answered(read.step, 200, {}, `${JSON.stringify({ echo: token })} order-1234`, 50);
    expect(problem?.message).toContain('found nothing in: {"echo":"[redacted]"} [redacted]');
    const again = cursor.answered(read.step, 200, {}, cut, cut.length);
    expect(again?.message).toContain('found nothing in: {"token":"[redacted]');
    for (const message of [problem?.message ?? '', again?.message ?? '']) {
      for (let at = 0; at + 8 <= token.length; at++) expect(message).not.toContain(token.slice(at, at + 8));
      expect(message).not.toContain(JSON.stringify(token).slice(1, 9));
    }
  });

  it('refuses bad weights, unknown names, variables not captured before and a missing data file', () => {
    expect(() => build({ name: 'm', mix: { a: 0 } })).toThrow(/positive number/);
    expect(() => build({ name: 'm', mix: { nowhere: 1 } })).toThrow(/names "nowhere", which is no scenario object/);
    expect(() =>
      build({
        name: 'f',
        steps: [
          { name: 'a', path: '/{{token}}' },
          { ...login, once: false },
        ],
      }),
    ).toThrow(/step "a": \{\{token\}\}: unknown template function "token"/);
    expect(() => build({ name: 'd', path: '/{{row.x}}', data: { file: 'missing.csv' } })).toThrow(/missing\.csv cannot be read \(ENOENT\)/);
  });

  it('refuses before load a header value or a raw path value that would break the request, naming its source', () => {
    writeFileSync(path.join(dir, 'cities.csv'), 'name,city\nann,oslo\nbob,"New\r\nYork"\n');
    const data = { file: 'cities.csv' };
    const refused = (entry: ScenarioObjectInput) => {
      let message = '';
      try {
        build(entry);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).not.toMatch(/[\r\n]/); // one line
      return message;
    };
    expect(refused({ name: 'h', path: '/x', headers: { 'x-city': 'in {{row.city}}' }, data })).toBe(
      'scenario "h", step "h": header x-city: {{row.city}} (data file cities.csv, row 2, column city) holds CR, LF or NUL, which would end the header; fix the data file',
    );
    expect(refused({ name: 'r', path: '/c/{{raw row.city}}', data })).toMatch(
      /^scenario "r", step "r": path: \{\{raw row.city\}\} \(data file cities.csv, row 2, column city\) holds a space, a control byte or a non-ASCII character.*; drop raw/,
    );
    // a NUL written in the config is refused where it stands, before any template is read
    expect(refused({ name: 'p', path: '/x', headers: { 'x-a': '{{pick a b\u0000c}}' } })).toMatch(
      /headers\.x-a: a header value without CR, LF or NUL/,
    );
    expect(refused({ name: 't', path: '/a b/{{counter}}' })).toMatch(/path: its text holds a space.*; percent-encode it/);
    // encoded, the same row is well formed
    expect(() => build({ name: 'e', path: '/c/{{row.city}}', data })).not.toThrow();
  });

  it('refuses a request a captured value would break, naming its step; the connection then starts over', () => {
    const workload = build({
      name: 'f',
      steps: [
        login,
        { name: 'get', path: '/items', headers: { authorization: 'Bearer {{token}}' }, capture: { id: { json: 'id' } } },
        { name: 'show', path: '/items/{{raw id}}' },
      ],
    });
    const cursor = new CompiledWorkload(workload, source).connection();
    const first = sent(cursor.next());
    expect(cursor.answered(first.step, 200, {}, JSON.stringify({ token: 'T\r\nX-Injected: 1' }), 0)).toBeUndefined();
    const refused = cursor.next() as RefusedRequest;
    expect(refused.refused).toBe(
      'step get: header authorization: {{token}} (captured by step login) holds CR, LF or NUL, which would end the header; the request was not sent',
    );
    // its captures dropped, its once steps to run again
    const again = sent(cursor.next());
    expect(again.step.name).toBe('login');
    cursor.answered(again.step, 200, {}, '{"token":"T"}', 0);
    const get = sent(cursor.next());
    expect(get.headers.authorization).toBe('Bearer T');
    cursor.answered(get.step, 200, {}, '{"id":"a b"}', 0);
    expect((cursor.next() as RefusedRequest).refused).toMatch(/^step show: path: \{\{raw id\}\} \(captured by step get\) holds a space/);
  });

  it('hands data rows out in turn, strided over threads, or per connection', () => {
    writeFileSync(path.join(dir, 'users.csv'), 'name,pass\nann,1\nbob,2\ncid,3\ndan,4\n');
    const workload = build({ name: 'rows', path: '/u/{{row.name}}', data: { file: 'users.csv' } });
    const paths = (index: number, count: number) => {
      const cursor = new CompiledWorkload(workload, source, { index, count }).connection();
      return [0, 1, 2].map(() => sent(cursor.next()).path);
    };
    expect(paths(0, 1)).toEqual(['/u/ann', '/u/bob', '/u/cid']);
    expect(paths(1, 2)).toEqual(['/u/bob', '/u/dan', '/u/bob']);
    writeFileSync(path.join(dir, 'users.jsonl'), '{"name":"eve"}\n{"name":"fay"}\n');
    const perConnection = build({ name: 'c', path: '/u/{{row.name}}', data: { file: 'users.jsonl', per: 'connection' } });
    const compiled = new CompiledWorkload(perConnection, source);
    const one = compiled.connection();
    const two = compiled.connection();
    expect([sent(one.next()).path, sent(one.next()).path, sent(two.next()).path]).toEqual(['/u/eve', '/u/eve', '/u/fay']);
  });
});
