import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { runCli } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// A server the test started itself: bench --url drives it and starts nothing.
let server: http.Server;
let base = '';
const seen = { get: 0, post: 0, bodies: new Set<string>() };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      };
      if (req.method === 'GET' && req.url === '/items') {
        seen.get++;
        return json(200, { items: [{ id: 1 }], at: Date.now() });
      }
      if (req.method === 'POST' && req.url === '/items') {
        seen.post++;
        seen.bodies.add(`${req.headers['content-type']} ${Buffer.concat(chunks).toString()}`);
        return json(201, { id: seen.post });
      }
      json(404, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const dir = testTempDir('url-run');

describe('bench run --url', () => {
  it('drives a running server: verified, loaded, reported under its host and request', async () => {
    const before = seen.get;
    const run = await runCli(['run', '--url', `${base}/items`, '-c', '2', '-n', '200', '-w', '0']);
    expect(run.code, run.stderr).toBe(0);
    const host = new URL(base).host;
    expect(run.stdout).toContain('### GET /items');
    expect(run.stdout).toMatch(new RegExp(`^\\| ${host.replace(/\./g, '\\.')} \\| 2 \\| [\\d,.]+ \\|`, 'm'));
    // the verification request, the probe's first on a kept-alive connection (a chunked answer: not looked past, nor asked
    // again), then the 200 measured
    expect(seen.get - before).toBe(202);
  });

  it('sends -m, -H and -b as given, and checks --expect-status', async () => {
    const out = path.join(dir, 'post.json');
    const run = await runCli([
      'run',
      '--url',
      `${base}/items`,
      '-m',
      'POST',
      '-H',
      'Content-Type: application/json',
      '-b',
      '{"name":"x"}',
      '--expect-status',
      '201',
      '-c',
      '2',
      '-n',
      '100',
      '-w',
      '0',
      '--reporter',
      'json',
      '--out',
      out,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [result] = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).results;
    expect(result).toMatchObject({ method: 'POST', requests: 100, statusCodes: { 201: 100 }, failed: 0, non2xx: 0 });
    expect([...seen.bodies]).toEqual(['application/json {"name":"x"}']);
  });

  it('a wrong status is found before load: the cell fails and the run exits 1', async () => {
    const run = await runCli(['run', '--url', `${base}/items`, '-m', 'POST', '--expect-status', '200', '-c', '1', '-n', '10', '-w', '0']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/1 of 1 cells failed \(first: POST \/items\/.* verification failed: status 201, expected 200/);
  });

  it("checks the config's thresholds: exit 0 when they hold, 1 with the broken one named when not", async () => {
    writeFileSync(path.join(dir, 'bench.config.json'), JSON.stringify({ thresholds: { '*': { rps: '>1', failed: '==0' } } }));
    const pass = await runCli(['run', '--url', `${base}/items`, '-c', '2', '-n', '100', '-w', '0'], { cwd: dir });
    expect(pass.code, pass.stderr).toBe(0);
    expect(pass.stdout).toMatch(/Thresholds: 2 checked, 0 failed\./);
    writeFileSync(path.join(dir, 'bench.config.json'), JSON.stringify({ thresholds: { '*': { rps: '>1', p50: '<0.000001' } } }));
    const fail = await runCli(['run', '--url', `${base}/items`, '-c', '2', '-n', '100', '-w', '0'], { cwd: dir });
    expect(fail.code).toBe(1);
    expect(fail.stderr).toMatch(/bench: BENCH_ERR_THRESHOLDS: 1 of 2 thresholds failed \(first: GET \/items\/.* p50 <0\.000001, got/);
    expect(fail.stdout).toMatch(/: p50 <0\.000001 \(actual [\d.]+, from "\*"\): FAIL/);
  });

  it('refuses scenario names and -t with --url', async () => {
    expect((await runCli(['run', 'hello', '--url', `${base}/items`])).stderr).toMatch(
      /--url drives one request .* cannot be combined with scenario names/,
    );
    expect((await runCli(['run', '--url', `${base}/items`, '-t', 'node'])).stderr).toMatch(
      /--url names the server to drive; it cannot be combined with -t/,
    );
  });
});
