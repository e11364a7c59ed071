import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BodyExpectation, LoadMeasurement } from '@bench/core';
import { builtinEngines } from '@bench/runner';

// A body check by pattern or JSON reads at most --max-checked-body bytes of a body: one at the limit is checked, one
// byte past it fails by name, and a 1 GiB answer costs the js core no more memory than a small one.
const GIB = 1024 ** 3;
const LIMIT = 1024;
const json = (bytes: number) => `{"ok":true,"pad":"${'x'.repeat(bytes - 20)}"}`;
const atLimit = json(LIMIT);
const pastLimit = json(LIMIT + 1);

let server: net.Server;
let base = '';
beforeAll(async () => {
  server = net.createServer((socket) => {
    let buffered = '';
    socket.on('error', () => {});
    socket.on('data', (data) => {
      buffered += data.toString('latin1');
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
        const path = buffered.slice(0, end).split(' ')[1] ?? '/';
        buffered = buffered.slice(end + 4);
        if (path === '/gib') void sendGib(socket);
        else {
          const body = path === '/past' ? pastLimit : atLimit;
          socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A JSON answer of 1 GiB, written a MiB at a time as the client reads it. */
async function sendGib(socket: net.Socket): Promise<void> {
  const slice = Buffer.alloc(1024 ** 2, 'x');
  socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${GIB}\r\n\r\n`);
  for (let sent = 0; sent < GIB && !socket.destroyed; sent += slice.length) {
    if (!socket.write(slice)) await new Promise((resolve) => socket.once('drain', resolve));
  }
}

const expectJson: BodyExpectation = { kind: 'json', subset: { ok: true } };

function run(engineName: string, path: string, options: Record<string, unknown> = {}, requests = 20): Promise<LoadMeasurement> {
  const engine = builtinEngines.find((e) => e.name === engineName)!;
  const openLoop = engineName === 'open-loop';
  return engine.run({
    url: base + path,
    request: { method: 'GET', path, headers: {} },
    expect: expectJson,
    maxCheckedBody: LIMIT,
    shape: openLoop
      ? { connections: 2, keepAlive: true, timeoutSeconds: 10, rate: 20, durationSeconds: 1 }
      : { connections: 2, keepAlive: true, timeoutSeconds: 30, requests },
    options,
  });
}

describe('--max-checked-body', () => {
  for (const [engine, options] of [
    ['wire', { core: 'js' }],
    ['autocannon', {}],
    ['open-loop', {}],
  ] as const) {
    it(`${engine}: checks a body at the limit, and fails one a byte past it by name`, async () => {
      const at = await run(engine, '/at', options);
      expect([at.failures.length, at.requests > 0]).toEqual([0, true]);
      const past = await run(engine, '/past', options);
      expect(past.requests).toBeGreaterThan(0);
      expect(past.failures.length).toBe(past.requests);
      if (engine === 'wire')
        expect(past.errorSamples).toContain(
          `body of ${pastLimit.length} bytes, over the ${LIMIT} bytes a body check reads (--max-checked-body)`,
        );
    });
  }

  it('wire js core: a 1 GiB body under a JSON check is read, counted and failed with memory flat', async () => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const watch = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const m = await run('wire', '/gib', { core: 'js', clientThreads: 1 }, 2);
      expect([m.requests, m.failures.length]).toEqual([2, 2]);
      expect(m.bytes.body).toBe(2 * GIB);
      expect(m.errorSamples).toContain(`body of ${GIB} bytes, over the ${LIMIT} bytes a body check reads (--max-checked-body)`);
    } finally {
      clearInterval(watch);
    }
    // gathered, two bodies would be 2 GiB; read as they arrive, the process grew by its buffers alone
    expect(peak - before).toBeLessThan(128 * 1024 ** 2);
  }, 120_000);
});
