import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConnectionTimer, mergeConnectTimes } from './connection-costs.js';

describe('the connection timer', () => {
  it('times real sockets: connect, handshake and first byte each once per connection', async () => {
    const server = createServer((socket) => socket.end('hello'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const timer = new ConnectionTimer(false);
    for (let i = 0; i < 3; i++) {
      const socket = connect(port, '127.0.0.1');
      timer.watch(socket);
      await new Promise((resolve) => socket.on('close', resolve).resume());
    }
    server.close();
    const times = timer.finish();
    expect(times.count).toBe(3);
    expect(times.handshake).toBeUndefined();
    expect(times.firstByte!.latency.min).toBeGreaterThanOrEqual(times.latency.min);
  });

  it('merges threads exactly: counts added, histograms pooled', async () => {
    const server = createServer((socket) => socket.end('hello'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const parts = [];
    for (let thread = 0; thread < 2; thread++) {
      const timer = new ConnectionTimer(false);
      for (let i = 0; i <= thread; i++) {
        const socket = connect(port, '127.0.0.1');
        timer.watch(socket);
        await new Promise((resolve) => socket.on('close', resolve).resume());
      }
      parts.push(timer.finish());
    }
    server.close();
    const merged = mergeConnectTimes(parts);
    expect(merged.count).toBe(3);
    expect(merged.latency.max).toBe(Math.max(...parts.map((p) => p.latency.max)));
    expect(merged.firstByte!.latency.min).toBe(Math.min(...parts.map((p) => p.firstByte!.latency.min)));
  });
});
