import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SnappyJS from 'snappyjs';
import type { RunDocument } from '@bench/core';
import { repoRoot, runCli, waitForText } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// Secrets given on the command line, in a config and in the URL: every request carries them, and nothing the run
// writes or serves (results, every reporter, journal, history, the live dashboard, its terminal output) holds one.
const secrets = {
  bearer: 'CLI-TOKEN-a1b2c3',
  cookie: 'COOKIE-SESSION-d4e5',
  named: 'NAMED-HEADER-f6g7',
  query: 'QUERY-TOKEN-h8i9',
  password: 'URL-PASSWORD-j0k1',
  config: 'CONFIG-BODY-l2m3',
  receiverKey: 'RECEIVER-KEY-n4o5',
  receiverPassword: 'RECEIVER-PASSWORD-p6q7',
};

interface Seen {
  readonly authorization?: string;
  readonly cookie?: string;
  readonly apiKey?: string;
  readonly url?: string;
  readonly body: string;
}

describe('secrets in what a run writes', () => {
  const seen: Seen[] = [];
  // what the same server, as a Prometheus remote-write receiver, was sent: each request's headers and labels' text
  const received: { key?: string; authorization?: string; text: string }[] = [];
  let server: http.Server;
  let port = 0;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
        chunks.push(chunk);
      });
      request.on('end', () => {
        if (request.url === '/api/v1/write') {
          const bytes = Buffer.concat(chunks);
          received.push({
            ...(typeof request.headers['x-receiver-key'] === 'string' ? { key: request.headers['x-receiver-key'] } : {}),
            ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
            text: bytes.length > 0 ? Buffer.from(SnappyJS.uncompress(bytes)).toString('latin1') : '',
          });
          return void response.writeHead(204).end();
        }
        seen.push({
          ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
          ...(request.headers.cookie ? { cookie: request.headers.cookie } : {}),
          ...(typeof request.headers['x-api-key'] === 'string' ? { apiKey: request.headers['x-api-key'] } : {}),
          ...(request.url ? { url: request.url } : {}),
          body,
        });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends every secret on every request and writes none, saying which names it redacted', async () => {
    const dir = testTempDir('redaction');
    const config = path.join(dir, 'bench.config.mjs');
    const runner = pathToFileURL(path.join(repoRoot, 'packages', 'runner', 'dist', 'bundle', 'index.js')).href;
    writeFileSync(config, `import { secret } from '${runner}';\nexport default { defaults: { body: secret('${secrets.config}') } };\n`);
    const out = (name: string) => path.join(dir, name);
    const pages: string[] = [];
    const run = await runCli(
      [
        'run',
        ...['--config', config, '--url', `http://alice:${secrets.password}@127.0.0.1:${port}/items?token=${secrets.query}&page=2`],
        ...['-m', 'POST', '-H', `Authorization: Bearer ${secrets.bearer}`, '-H', `Cookie: a=1; session=${secrets.cookie}`],
        ...['-H', `X-Api-Key: ${secrets.named}`, '--redact', 'X-Api-Key,token', '-c', '2', '-d', '2', '--warmup', '0'],
        ...['-r', 'json', '-o', out('results.json'), '-r', 'html', '-o', out('report.html'), '-r', 'markdown', '-o', out('report.md')],
        ...['-r', 'ab', '-o', out('ab.txt'), '--journal', out('run.journal.jsonl'), '--history', out('history.jsonl')],
        ...['--dashboard', '--dashboard-port', '0'],
        ...['--out', `prometheus=http://bench:${secrets.receiverPassword}@127.0.0.1:${port}/api/v1/write`],
        ...['--out-header', `X-Receiver-Key: ${secrets.receiverKey}`],
      ],
      {
        cwd: dir,
        timeoutMs: 60_000,
        onSpawn: (_child, output) => {
          void (async () => {
            const printed = /bench: dashboard (http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]+\/)/;
            await waitForText(output, printed);
            const url = printed.exec(output())?.[1] ?? '';
            // the live page once it shows the cell in progress, and the final report
            await waitForText(output, /\[1\/1\]/);
            for (const at of ['', 'body', 'report.html']) pages.push(await fetch(url + at).then((r) => r.text(), String));
          })();
        },
      },
    );
    expect(run.code, run.stderr).toBe(0);

    // the wire: every request carried each secret
    expect(seen.length).toBeGreaterThan(10);
    const missing = seen.filter(
      (s) =>
        s.authorization !== `Bearer ${secrets.bearer}` ||
        s.cookie !== `a=1; session=${secrets.cookie}` ||
        s.apiKey !== secrets.named ||
        s.url !== `/items?token=${secrets.query}&page=2` ||
        s.body !== secrets.config,
    );
    expect(missing).toEqual([]);
    // the receiver got its credentials with every request, and labels without a secret
    const basic = `Basic ${Buffer.from(`bench:${secrets.receiverPassword}`).toString('base64')}`;
    expect(received.length).toBeGreaterThan(1);
    expect(received.filter((r) => r.key !== secrets.receiverKey || r.authorization !== basic)).toEqual([]);
    expect(received.some((r) => r.text.includes('POST /items?token=[redacted]&page=2'))).toBe(true);

    // everything written: each file of the run's folder, the dashboard's pages, the terminal
    const written = readdirSync(dir).filter((name) => name !== 'bench.config.mjs');
    expect(written.sort()).toEqual(['ab.txt', 'history.jsonl', 'report.html', 'report.md', 'results.json', 'run.journal.jsonl']);
    expect(pages).toHaveLength(3);
    const texts = [
      ...written.map((name) => [name, readFileSync(out(name), 'utf8')]),
      ...pages.map((p, i) => [`page ${i}`, p]),
      ...received.map((r, i) => [`remote write ${i}`, r.text]),
      ['stdout', run.stdout],
      ['stderr', run.stderr],
    ];
    // nor any cut of one eight characters long (a sample cut in the middle of an echoed secret)
    const cuts = (secret: string) => Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8));
    const leaks = texts.flatMap(([name, text]) =>
      Object.values(secrets)
        .flatMap(cuts)
        .filter((cut) => text!.includes(cut))
        .map((cut) => `${name}: ${cut}`),
    );
    expect(leaks).toEqual([]);

    const doc = JSON.parse(readFileSync(out('results.json'), 'utf8')) as RunDocument;
    expect(doc.redacted).toEqual([
      'config defaults.body',
      'header Authorization',
      'header Cookie',
      'header X-Api-Key',
      'header X-Receiver-Key',
      'query token',
      'user info',
    ]);
    expect(doc.command).toContain('-H Authorization: [redacted]');
    expect(doc.results[0]?.scenario).toBe('POST /items?token=[redacted]&page=2');
  });
});

describe('secrets in what bench prints before a run', () => {
  it('an option refused before any config is read: its line holds no password, header or ssh user of the command line', async () => {
    const password = 'EARLY-PASSWORD-r8s9';
    const bearer = 'EARLY-BEARER-t0u1';
    const cases = [
      ['run', '--url', `http://user:${password}@127.0.0.1:1/`, '-c', '0'],
      ['run', '--url', `http://user:${password}@127.0.0.1:1/`, '-H', `Authorization: Bearer ${bearer}`, '--bogus'],
      ['run', '--url', `ftp://user:${password}@127.0.0.1/`],
      ['run', 'hello', '--server-host', `ssh://secretuser:${password}@10.0.0.2`],
    ];
    for (const args of cases) {
      const run = await runCli(args, { timeoutMs: 30_000 });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/^bench: BENCH_ERR_/);
      for (const secret of [password, bearer, 'secretuser@']) expect(run.stderr, args.join(' ')).not.toContain(secret);
    }
  });
});

describe('secrets in what verify prints and what a crash prints', () => {
  const password = 'VERIFY-PASSWORD-v2w3';
  const bearer = 'VERIFY-BEARER-x4y5';
  const query = 'VERIFY-QUERY-z6a7';
  const cuts = (secret: string) => Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8));
  const leaksIn = (text: string) => [password, bearer, query].flatMap(cuts).filter((cut) => text.includes(cut));
  // a server that answers with what it was sent, JSON-escaped and cut in the middle of the bearer token
  const echo = `
import http from 'node:http';
http.createServer((request, response) => {
  if (request.url === '/health') return void response.end('ok');
  response.end(JSON.stringify({ url: request.url, auth: request.headers.authorization }).slice(0, 62));
}).listen(Number(process.env.PORT), process.env.HOST);
`;

  it('bench verify quotes the failing answer with the secrets of its scenario hidden', async () => {
    const dir = testTempDir('verify-redaction');
    writeFileSync(path.join(dir, 'echo.mjs'), echo);
    writeFileSync(
      path.join(dir, 'bench.config.json'),
      JSON.stringify({
        targets: [{ name: 'echo', command: process.execPath, args: ['echo.mjs'], ready: { path: '/health' } }],
        scenarios: [
          { name: 'leaky', path: `/items?token=${query}`, headers: { Authorization: `Bearer ${bearer}` }, expect: { body: 'ok' } },
        ],
        defaults: { redact: ['token'] },
      }),
    );
    const run = await runCli(['verify', 'leaky', '-t', 'echo'], { cwd: dir, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(1);
    // the answer is quoted, each secret in it hidden: the token whole, the bearer's piece the cut left
    expect(run.stdout).toContain('(starts: "{"url":"/items?token=[redacted]","auth":"[redacted]")');
    expect(leaksIn(run.stdout + run.stderr)).toEqual([]);
  });

  it("bench serve and bench verify, given a service's URL with a password it cannot use, print neither", async () => {
    const cases: Array<[string[], Record<string, string>]> = [
      [['serve', 'node', 'redis-get'], { BENCH_REDIS_URL: `redis://:${password}@127.0.0.1:1/` }],
      [['verify', 'mysql-select', '-t', 'node'], { BENCH_MYSQL_URL: `mysql://bench:${password}@127.0.0.1:1/bench` }],
    ];
    for (const [args, env] of cases) {
      const run = await runCli(args, { env, timeoutMs: 60_000 });
      expect(run.code, run.stderr).not.toBe(0);
      expect(run.stdout + run.stderr, args.join(' ')).toMatch(/127\.0\.0\.1:1/);
      expect(leaksIn(run.stdout + run.stderr), args.join(' ')).toEqual([]);
    }
  });

  it('a crash of the runner prints its stack with every secret of the command line hidden', async () => {
    const dir = testTempDir('crash-redaction');
    // a config whose code throws where nothing catches it, its message holding the whole command line
    writeFileSync(
      path.join(dir, 'bench.config.mjs'),
      "setTimeout(() => { throw new Error('crashed on: ' + process.argv.join(' ')); }, 0);\nexport default {};\n",
    );
    const run = await runCli(
      [
        'run',
        ...['--url', `http://alice:${password}@127.0.0.1:1/items?token=${query}`],
        ...['-H', `Authorization: Bearer ${bearer}`, '--redact', 'token', '-c', '1', '-d', '5'],
      ],
      { cwd: dir, timeoutMs: 30_000 },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/bench: internal error: Error: crashed on: /);
    expect(leaksIn(run.stderr + run.stdout)).toEqual([]);
  });
});
