import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BodyExpectation, LoadShape } from '@bench/core';
import { builtinEngines } from '@bench/runner';

const autocannonEngine = builtinEngines.find((e) => e.name === 'autocannon')!;

const expectedBody = Buffer.from('Hello World');
const expect11: BodyExpectation = { kind: 'exact', length: 11, bytes: () => expectedBody };
// The engine under the contract every engine implements: a URL, a GET, a body expectation, a shape.
const runLoad = (o: {
  url: string;
  connections: number;
  requests?: number;
  durationSeconds?: number;
  keepAlive: boolean;
  timeoutSeconds: number;
}) => {
  const { url, ...rest } = o;
  const shape: LoadShape = rest;
  return autocannonEngine.run({ url, request: { method: 'GET', path: new URL(url).pathname, headers: {} }, expect: expect11, shape });
};

// A plain in-process server that counts connections, to check what the load engine really sends.
let server: http.Server;
let url: string;
let connections = 0;
let served = 0;
let mode: 'ok' | 'short' = 'ok';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    served++;
    if (req.url === '/missing') {
      res.writeHead(404).end('nope');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end(mode === 'ok' ? 'Hello World' : 'Hello');
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('runLoad', () => {
  it('counts every response of a request-bounded run on kept-alive connections', async () => {
    connections = 0;
    served = 0;
    const m = await runLoad({ url, connections: 4, requests: 200, keepAlive: true, timeoutSeconds: 5 });
    expect(m.requests).toBe(200);
    expect(served).toBe(200);
    expect(connections).toBe(4);
    expect(m.keepAliveResponses).toBe(200);
    expect(m.failures).toEqual({ connect: 0, receive: 0, length: 0, exceptions: 0, timeouts: 0 });
    expect(m.bytes.body).toBe(200 * 11);
    expect(m.bytes.total).toBeGreaterThan(m.bytes.body);
    expect(m.latency.max).toBeGreaterThanOrEqual(m.latency.p50);
  });

  it('opens a new connection for every request without keep-alive, and still counts them', async () => {
    connections = 0;
    const m = await runLoad({ url, connections: 4, requests: 100, keepAlive: false, timeoutSeconds: 5 });
    expect(m.requests).toBe(100);
    expect(connections).toBeGreaterThanOrEqual(100);
    expect(connections).toBeLessThanOrEqual(104);
  });

  it('opens a new connection when the server says Connection: close, instead of failing requests', async () => {
    const closing = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' }).end('Hello World');
    });
    let opened = 0;
    closing.on('connection', () => opened++);
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    const port = (closing.address() as AddressInfo).port;
    const m = await runLoad({ url: `http://127.0.0.1:${port}/`, connections: 4, requests: 200, keepAlive: true, timeoutSeconds: 5 });
    await new Promise<void>((resolve) => closing.close(() => resolve()));
    expect(m.requests).toBe(200);
    expect(m.failures).toEqual({ connect: 0, receive: 0, length: 0, exceptions: 0, timeouts: 0 });
    expect(opened).toBeGreaterThanOrEqual(200);
    expect(m.keepAliveResponses).toBe(0);
  });

  it("with keep-alive, closes each connection after --requests-per-connection requests (article 000's browser)", async () => {
    connections = 0;
    const m = await autocannonEngine.run({
      url,
      request: { method: 'GET', path: '/', headers: {} },
      expect: expect11,
      shape: { connections: 2, requests: 200, keepAlive: true, requestsPerConnection: 4, timeoutSeconds: 5 },
    });
    expect(m.requests).toBe(200);
    expect(connections).toBeGreaterThanOrEqual(50);
    expect(connections).toBeLessThanOrEqual(52);
    // the fourth answer on each connection is the last: three of four kept alive
    expect(m.keepAliveResponses).toBe(150);
  });

  it('counts wrong bodies as length failures and non-2xx separately', async () => {
    mode = 'short';
    const wrong = await runLoad({ url, connections: 2, requests: 20, keepAlive: true, timeoutSeconds: 5 });
    mode = 'ok';
    expect(wrong.failures.length).toBe(20);
    const missing = await runLoad({ url: `${url}/missing`, connections: 2, requests: 10, keepAlive: true, timeoutSeconds: 5 });
    expect(missing.non2xx).toBe(10);
    expect(missing.statusCodes).toEqual({ 404: 10 });
  });

  it('counts refused connections as connect failures', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const m = await runLoad({ url: `http://127.0.0.1:${port}/`, connections: 1, durationSeconds: 0.3, keepAlive: true, timeoutSeconds: 1 });
    expect(m.requests).toBe(0);
    expect(m.failures.connect).toBeGreaterThan(0);
  });
});
