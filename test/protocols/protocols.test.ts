import { readFileSync, writeFileSync } from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePrivateDir, makeTlsMaterial, removeDir, runDocumentSchema, type TlsMaterial } from '@bench/core';
import { findEngine } from '@bench/engines';
import { runCli } from '../support/cli.js';
import { runCellJson } from '../support/run-cell.js';
import { benchTempDirs, newTempDirs } from '../support/leaks.js';
import { watchDescendants } from '../support/descendants.js';
import { testTempDir } from '../support/temp-dir.js';

const dir = testTempDir('protocols');

/** One cell of `bench run ARGS`, from its JSON results; the run must exit 0. */
const runCell = (args: string[], name: string) => runCellJson(dir, args, name);

describe('--protocol', () => {
  // by count where what is asked is that it served (and how): a few hundred requests, not seconds of load
  it('serves HTTP/2 over TLS from Node, verified against the run CA, driven by k6 (chosen for h2); the key files are gone after', async () => {
    const before = benchTempDirs();
    const cell = await runCell(['run', 'hello', '-t', 'node', '--protocol', 'h2', '-c', '4', '-n', '400'], 'node-h2');
    expect(cell).toMatchObject({ status: 'ok', protocol: 'h2', failed: 0, non2xx: 0, engine: { name: 'k6' } });
    // one connection per virtual user, each with its handshake, read from k6's samples
    expect(cell.connects).toMatchObject({ count: 4, handshake: { p99: expect.any(Number) }, firstByte: { p50: expect.any(Number) } });
    expect(cell.connects!.handshake!.p50).toBeGreaterThan(0);
    expect(cell.notes.some((note) => /^connections: 4 opened .*TLS handshake p50 [\d.]+ \/ p99 [\d.]+ ms/.test(note))).toBe(true);
    expect(cell.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/);
    expect(cell.settings.protocol).toBe('h2');
    expect(cell.requests).toBeGreaterThan(100);
    // the run's CA and the server's key lived in a private dir that the run removed
    expect(await newTempDirs(before)).toEqual([]);
  });

  it('serves HTTP/1.1 over TLS from nginx, driven by autocannon verifying the server against the run CA', async () => {
    const cell = await runCell(['run', 'file', '-t', 'nginx-static', '--protocol', 'https', '-c', '4', '-n', '400'], 'nginx-https');
    expect(cell).toMatchObject({ status: 'ok', protocol: 'https', failed: 0, non2xx: 0 });
    expect(cell.requests).toBeGreaterThan(100);
  });

  it("autocannon times each connection's TCP connect, TLS handshake and first byte; without keep-alive the report names the handshake's share", async () => {
    const cell = await runCell(
      ['run', 'file', '-t', 'nginx-static', '--protocol', 'https', '--no-keepalive', '-c', '2', '-n', '200'],
      'nginx-https-close',
    );
    expect(cell).toMatchObject({ status: 'ok', requests: 200, failed: 0 });
    // a connection per request (the last ones may open before the run stops)
    expect(cell.connects!.count).toBeGreaterThanOrEqual(200);
    expect(cell.connects!.count).toBeLessThanOrEqual(202);
    expect(cell.connects!.requestsPerConnection).toBeLessThanOrEqual(1);
    expect(cell.connects!.handshake!.min).toBeGreaterThan(0);
    expect(cell.connects!.firstByte!.p50).toBeGreaterThan(cell.connects!.handshake!.p50);
    expect(cell.notes).toContainEqual(expect.stringMatching(/^the TLS handshake took \d+% of each request's time/));
    // second by second: the measured seconds' new connections add up to the cell's, each second with its handshakes
    const measured = (cell.series ?? []).filter((p) => p.phase === 'measure');
    expect(measured.reduce((sum, p) => sum + (p.newConnections ?? 0), 0)).toBe(cell.connects!.count);
    // (a second in which no connection opened, as when a busy machine stalled the run, has no handshake to show)
    const opening = measured.filter((p) => (p.newConnections ?? 0) > 0);
    expect(opening.length).toBeGreaterThan(0);
    expect(opening.every((p) => p.handshake && p.handshake.max >= p.handshake.mean)).toBe(true);
  });

  it('serves PHP-FPM over HTTP/2 through its nginx (a body HTTP/2 frames, with no Content-Length)', async () => {
    const cell = await runCell(
      ['run', 'hello', '-t', 'php-fpm', '--protocol', 'h2', '--engine', 'h2load', '-c', '4', '-n', '200'],
      'php-h2',
    );
    expect(cell).toMatchObject({ status: 'ok', protocol: 'h2', failed: 0, non2xx: 0 });
  });

  it('the open loop drives Node over TLS at its rate, verifying the server against the run CA', async () => {
    const cell = await runCell(
      ['run', 'hello', '-t', 'node', '--protocol', 'https', '--rate', '500', '-c', '4', '-d', '2'],
      'node-open-loop',
    );
    expect(cell).toMatchObject({ status: 'ok', protocol: 'https', failed: 0, non2xx: 0, rate: { target: 500 } });
    // the schedule's 1,000 requests at most; how many were answered in time depends on how busy the machine is (-c 4
    // over TLS falls behind when a request takes over 8 ms), so only that it drove the server at all is asked
    expect(cell.requests).toBeGreaterThan(100);
    expect(cell.requests).toBeLessThanOrEqual(1050);
    // its connections timed too: at most the -c 4, opened as the schedule needed them and kept alive, each with its handshake
    expect(cell.connects).toMatchObject({ handshake: { p50: expect.any(Number) }, firstByte: { p50: expect.any(Number) } });
    expect(cell.connects!.count).toBeGreaterThanOrEqual(1);
    expect(cell.connects!.count).toBeLessThanOrEqual(4);
  });

  it('wrk drives nginx over TLS too, and says it checks no certificate', async () => {
    const cell = await runCell(
      ['run', 'file', '-t', 'nginx-static', '--protocol', 'https', '--engine', 'wrk', '-c', '4', '-d', '1'],
      'nginx-wrk',
    );
    expect(cell).toMatchObject({ status: 'ok', protocol: 'https', failed: 0, non2xx: 0 });
    expect(cell.notes).toContain(
      "wrk checks no server certificate: only bench's verification request checked the chain against the run's CA",
    );
  });

  it("an app target serves TLS with the run's certificate, given as {cert} and {key}", async () => {
    const app = path.join(dir, 'tls-app.mjs');
    writeFileSync(
      app,
      `import http2 from 'node:http2';
import https from 'node:https';
import { readFileSync, writeFileSync } from 'node:fs';
const [cert, key] = process.argv.slice(2);
https.createServer({ cert: readFileSync(cert), key: readFileSync(key) }, (q, r) => r.writeHead(200, { 'content-length': 2 }).end('ok'))
  .listen(Number(process.env.PORT), process.env.HOST);
`,
    );
    writeFileSync(
      path.join(dir, 'bench.config.mjs'),
      `export default {
  targets: [{ name: 'tls-app', command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(app)}, '{cert}', '{key}'], protocols: ['https'] }],
  scenarios: [{ name: 'root', path: '/', expect: { body: 'ok' } }],
};
`,
    );
    const out = path.join(dir, 'app-tls.json');
    const run = await runCli(['run', '--protocol', 'https', '-c', '2', '-n', '300', '-w', '0', '-r', 'json', '-o', out], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const [cell] = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).results;
    expect(cell).toMatchObject({ status: 'ok', protocol: 'https', requests: 300, failed: 0, settings: { protocol: 'https' } });
  });

  it('an engine asked for a protocol it does not speak: one line, exit 2, nothing started', async () => {
    let watch: ReturnType<typeof watchDescendants> | undefined;
    const run = await runCli(['run', 'hello', '-t', 'node', '--protocol', 'h2', '--engine', 'autocannon', '-d', '1'], {
      onSpawn: (child) => (watch = watchDescendants(child.pid ?? -1)),
    });
    watch?.stop();
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'bench: BENCH_ERR_ENGINE_UNSUPPORTED: engine "autocannon" cannot do this: --protocol h2 (HTTP/2 over TLS (ALPN h2)): autocannon speaks http1, https; use --engine open-loop or k6 or h2load',
    );
    expect(await watch?.survivors()).toEqual([]);
  });
});

describe('--url https:// with --ca', () => {
  let tls: TlsMaterial;
  let tlsDir = '';
  let server: https.Server;
  let base = '';
  beforeAll(async () => {
    tlsDir = makePrivateDir('test-tls');
    tls = await makeTlsMaterial(tlsDir);
    server = https.createServer({ key: readFileSync(tls.keyFile), cert: readFileSync(tls.certFile) }, (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 }).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    removeDir(tlsDir);
  });

  it('verifies the server against the CA given, and refuses it against the system roots', async () => {
    const cell = await runCell(['run', '--url', `${base}/`, '--ca', tls.caFile, '-c', '2', '-n', '200'], 'url-ca');
    expect(cell).toMatchObject({ status: 'ok', protocol: 'https', requests: 200, failed: 0 });

    const refused = path.join(dir, 'url-no-ca.json');
    const run = await runCli(['run', '--url', `${base}/`, '-c', '2', '-n', '200', '-w', '0', '-r', 'json', '-o', refused]);
    expect(run.code).toBe(1);
    const [cell2] = runDocumentSchema.parse(JSON.parse(readFileSync(refused, 'utf8'))).results;
    expect(cell2!.error).toMatch(
      /verification failed: request failed: .*(self-signed certificate|unable to verify|unable to get local issuer)/,
    );
  });

  it.each([
    ['autocannon', {}],
    ['open-loop', { rate: 300 }],
  ] as const)('%s under load refuses a server its CA did not sign (verification stays on)', async (name, extra) => {
    const otherDir = makePrivateDir('test-tls-other');
    try {
      const other = await makeTlsMaterial(otherDir);
      const plan = (caFile: string) => ({
        url: `${base}/`,
        request: { method: 'GET', path: '/', headers: {} },
        expect: { kind: 'any' } as const,
        shape: { connections: 2, durationSeconds: 1, keepAlive: true, timeoutSeconds: 2, ...extra },
        protocol: 'https' as const,
        caFile,
      });
      // the run's CA answers (how many, a busy machine decides: 100 of the open loop's 300 on 2 TLS connections
      // beside four other files), another's nothing
      const trusted = await findEngine(name).run(plan(tls.caFile));
      expect(trusted.requests).toBeGreaterThan(0);
      const refused = await findEngine(name).run(plan(other.caFile));
      expect(refused.requests).toBe(0);
      expect(refused.errorSamples.join(' ')).toMatch(/self-signed certificate|unable to verify|unable to get local issuer/);
    } finally {
      removeDir(otherDir);
    }
  });

  it('the open loop drives HTTP/2 by ALPN at its rate: every request the server saw came over h2', async () => {
    // a server that also speaks HTTP/1.1, so only the client's choice makes it h2
    const versions: Record<string, number> = {};
    const h2 = http2.createSecureServer(
      { key: readFileSync(tls.keyFile), cert: readFileSync(tls.certFile), allowHTTP1: true },
      (req, res) => {
        versions[req.httpVersion] = (versions[req.httpVersion] ?? 0) + 1;
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 }).end('ok');
      },
    );
    await new Promise<void>((resolve) => h2.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(h2.address() as AddressInfo).port}/`;
      const cell = await runCell(
        ['run', '--url', url, '--ca', tls.caFile, '--protocol', 'h2', '--rate', '300', '-c', '2', '-d', '1'],
        'open-loop-h2',
      );
      expect(cell).toMatchObject({ status: 'ok', protocol: 'h2', failed: 0, engine: { name: 'open-loop' } });
      expect(Object.keys(versions)).toEqual(['2.0']);
      // the server also answered bench's verification request
      expect(versions['2.0']).toBe(cell.requests + 1);
    } finally {
      await new Promise<void>((resolve) => h2.close(() => resolve()));
    }
  });
});
