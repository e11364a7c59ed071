import net from 'node:net';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDocumentSchema } from '@bench/core';
import { runCli } from '../support/cli.js';
import { testTempDir } from '../support/temp-dir.js';

// A server that sends answers to no request (each request answered twice, or a flood on the first): verification
// hears it on a kept-alive connection, the default engine (autocannon, which would count them as answers) hands the
// cells to wire, which fails them by name; an engine the user named is not run against it, and the cells say why.
const answer = () =>
  `HTTP/1.1 200 OK\r\nDate: ${new Date().toUTCString()}\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nHello World`;
const servers: net.Server[] = [];
const ports: Record<'twice' | 'flood' | 'lateTwice', number> = { twice: 0, flood: 0, lateTwice: 0 };

async function serve(write: (socket: net.Socket, n: number) => void): Promise<number> {
  const server = net.createServer((socket) => {
    let buffered = '';
    let n = 0;
    socket.on('error', () => {});
    socket.on('data', (data) => {
      buffered += data.toString('latin1');
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
        buffered = buffered.slice(end + 4);
        write(socket, n++);
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

beforeAll(async () => {
  ports.twice = await serve((socket) => socket.write(answer() + answer()));
  ports.flood = await serve((socket, n) => socket.write(answer().repeat(n === 0 ? 2000 : 1)));
  // once to each connection's first two requests, twice to every later one
  ports.lateTwice = await serve((socket, n) => socket.write(answer().repeat(n < 2 ? 1 : 2)));
});
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));
const dir = testTempDir('server-habits');

describe('a server that sends answers to no request', () => {
  for (const kind of ['twice', 'flood'] as const) {
    it(`(${kind}) is driven by wire, not the default engine, and its cells fail the extra answers by name`, async () => {
      const out = path.join(dir, `${kind}.json`);
      const run = await runCli([
        'run',
        '--url',
        `http://127.0.0.1:${ports[kind]}/`,
        '-c',
        '2',
        '-n',
        '100',
        '-w',
        '0',
        '-r',
        'json',
        '-o',
        out,
      ]);
      expect(run.code, run.stderr).toBe(0);
      const cell = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).results[0]!;
      expect(cell.engine?.name).toBe('wire');
      expect(cell.engine?.chosenBecause).toMatch(
        /^this server sends answers to no request \(a second answer, or a flood of them\), and autocannon counts answers the server sent to no request as answers .*: wire drives these cells, counting them as sent$/,
      );
      expect(cell.failed).toBeGreaterThan(0);
      expect(cell.notes.join(' ')).toMatch(/an answer to no request/);
    });
  }

  it('is not driven by an engine the user named that would miscount it: the cell fails saying why (exit 1)', async () => {
    const run = await runCli([
      'run',
      '--url',
      `http://127.0.0.1:${ports.twice}/`,
      '--engine',
      'autocannon',
      '-c',
      '2',
      '-n',
      '100',
      '-w',
      '0',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /and autocannon counts answers the server sent to no request as answers .*: its counts could not be the server's; run it with --engine wire, which counts them as sent/,
    );
  });

  it("that answers a connection's first two requests once is heard too (three asked on one connection)", async () => {
    const run = await runCli([
      'run',
      '--url',
      `http://127.0.0.1:${ports.lateTwice}/`,
      '--engine',
      'autocannon',
      '-c',
      '2',
      '-n',
      '100',
      '-w',
      '0',
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(
      /this server sends answers to no request .*: its counts could not be the server's; run it with --engine wire/,
    );
  });
});
