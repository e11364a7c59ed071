import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeLatencyHistogram } from '@bench/core';
import { runCellJson } from '../support/run-cell.js';
import { testTempDir } from '../support/temp-dir.js';

// A cleartext HTTP/2 server that counts the requests it answers.
let server: http2.Http2Server;
let base = '';
let answered = 0;

beforeAll(async () => {
  server = http2.createServer((req, res) => {
    answered++;
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2, date: new Date().toUTCString() }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const dir = testTempDir('h2load');

/** One cell of `bench run ARGS`, from its JSON results; the run must exit 0. */
const runCell = (args: string[], name: string) => runCellJson(dir, args, name);

describe('the h2load engine', () => {
  it("counts what the server counts, streams over each connection, its histogram holds every request of h2load's log", async () => {
    const before = answered;
    const cell = await runCell(
      ['run', '--url', `${base}/`, '--protocol', 'h2c', '--engine', 'h2load', '--streams', '8', '-c', '4', '-n', '2000'],
      'h2c',
    );
    // the verification request (over h2c too), then the 2,000 measured
    expect(answered - before).toBe(2001);
    expect(cell).toMatchObject({ status: 'ok', protocol: 'h2c', requests: 2000, failed: 0, non2xx: 0, statusCodes: { 200: 2000 } });
    const histogram = decodeLatencyHistogram(cell.histogram!);
    expect(histogram.totalCount).toBe(2000);
    expect(cell.latency.p99).toBeCloseTo(histogram.getValueAtPercentile(99) / 1000, 3);
    histogram.destroy();
    expect(cell.notes.some((n) => /^opening a connection took [\d.]+ ms on average/.test(n))).toBe(true);
  });

  it('drives Node over HTTP/2 with TLS, and says what opening a connection cost, the handshake included', async () => {
    const cell = await runCell(
      ['run', 'hello', '-t', 'node', '--protocol', 'h2', '--engine', 'h2load', '--streams', '4', '-c', '4', '-d', '2'],
      'node-h2',
    );
    expect(cell).toMatchObject({ status: 'ok', protocol: 'h2', failed: 0, non2xx: 0 });
    expect(cell.connectionSetup!.connect.mean).toBeGreaterThan(0);
    expect(cell.notes.some((n) => n.startsWith('opening a connection (TCP and the TLS handshake) took'))).toBe(true);
    expect(cell.series!.filter((p) => p.phase === 'measure').length).toBeGreaterThanOrEqual(2);
  });
});
