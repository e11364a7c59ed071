import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendsUnaskedAnswers } from './unasked-answers.js';

const ok = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello';
const answers: Record<string, string> = {
  '/once': ok,
  '/twice': ok + ok,
  '/late-twice': ok,
  '/third-twice': ok,
  '/interim': 'HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n' + ok,
  '/chunked': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n' + ok,
};

let server: net.Server;
let base = '';
beforeAll(async () => {
  server = net.createServer((socket) => {
    socket.on('error', () => {});
    let asked = 0;
    socket.on('data', (data) => {
      const path = data.toString('latin1').split(' ')[1] ?? '/';
      socket.write(answers[path] ?? ok);
      if (path === '/late-twice' && asked === 0) setTimeout(() => socket.write(ok), 30);
      // once to a connection's first two requests, twice to the third
      if (path === '/third-twice' && asked === 2) socket.write(ok);
      asked++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('sendsUnaskedAnswers', () => {
  it('hears nothing past an answer sent once, with or without interim answers before it', async () => {
    expect(await sendsUnaskedAnswers(`${base}/once`)).toBe(false);
    expect(await sendsUnaskedAnswers(`${base}/interim`)).toBe(false);
  });

  it('hears a second answer, at once or a little later', async () => {
    expect(await sendsUnaskedAnswers(`${base}/twice`)).toBe(true);
    expect(await sendsUnaskedAnswers(`${base}/late-twice`)).toBe(true);
  });

  it("asks three times on one connection: a server that answers a connection's first two requests once is heard", async () => {
    expect(await sendsUnaskedAnswers(`${base}/third-twice`)).toBe(true);
  });

  it('does not look past an answer it cannot frame by its length', async () => {
    expect(await sendsUnaskedAnswers(`${base}/chunked`)).toBe(false);
  });
});
