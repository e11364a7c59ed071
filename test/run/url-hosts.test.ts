import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

// bench run --url by host name and by IPv6 address, on both of wire's cores; a name that does not resolve; and a
// server whose habit an engine miscounts (103 Early Hints before every answer), said in the cell.
const servers: http.Server[] = [];
const hits = { v4: 0, v6: 0 };
const hosts = new Set<string | undefined>();

async function listen(host: string, handler: http.RequestListener): Promise<number> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

let v4 = 0;
let v6 = 0;
let hints = 0;
beforeAll(async () => {
  v4 = await listen('127.0.0.1', (req, res) => {
    hits.v4++;
    hosts.add(req.headers.host);
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`host ${req.headers.host}`);
  });
  v6 = await listen('::1', (_req, res) => {
    hits.v6++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('six');
  });
  hints = await listen('127.0.0.1', (_req, res) => {
    res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
    res.writeHead(200, { 'content-type': 'text/plain' }).end('Hello World');
  });
});
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

describe.each(['native', 'js'])("bench run --url on wire's %s core", (core) => {
  it('drives http://localhost:PORT/, its Host header the name given', async () => {
    const before = hits.v4;
    const run = await runCli([
      'run',
      '--url',
      `http://localhost:${v4}/`,
      '--engine',
      'wire',
      '--core',
      core,
      '-c',
      '2',
      '-n',
      '100',
      '-w',
      '0',
    ]);
    expect(run.code, run.stderr).toBe(0);
    // the verification request, the probe's first on a kept-alive connection (a chunked answer: not looked past, nor
    // asked again), then the 100 measured
    expect(hits.v4 - before).toBe(102);
    expect([...hosts]).toEqual([`localhost:${v4}`]);
    expect(run.stdout).toMatch(/\| localhost:\d+ \| 2 \| [\d,.]+ \|/);
  });

  it('drives http://[::1]:PORT/', async () => {
    const before = hits.v6;
    const run = await runCli([
      'run',
      '--url',
      `http://[::1]:${v6}/`,
      '--engine',
      'wire',
      '--core',
      core,
      '-c',
      '2',
      '-n',
      '100',
      '-w',
      '0',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(hits.v6 - before).toBe(102);
  });
});

describe('bench run --url', () => {
  it('refuses a host name that does not resolve, in one line, before anything starts (exit 2)', async () => {
    const run = await runCli(['run', '--url', 'http://no-such-host.invalid/', '-n', '10', '-w', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^bench: BENCH_ERR_UNKNOWN_HOST: http:\/\/no-such-host\.invalid\/: the host name "no-such-host\.invalid" does not resolve \(E\w+\); check its spelling/,
      ),
    ]);
  });

  it('fails the cell, saying why, when the server has a habit the engine the user named counts wrongly (wrk and 103 Early Hints)', async () => {
    const run = await runCli(['run', '--url', `http://127.0.0.1:${hints}/`, '--engine', 'wrk', '-c', '2', '-n', '100', '-w', '0']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(
      /this server sends interim answers \(1xx\) before its answers, and wrk counts each interim answer \(100, 103\) as an answer of its own: its counts could not be the server's; run it with --engine wire/,
    );
    const wire = await runCli(['run', '--url', `http://127.0.0.1:${hints}/`, '--engine', 'wire', '-c', '2', '-n', '100', '-w', '0']);
    expect(wire.stdout).not.toMatch(/interim answers/);
  });
});
