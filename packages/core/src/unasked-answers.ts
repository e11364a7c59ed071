import net from 'node:net';
import type { HttpRequestSpec } from './http.js';

const HEAD_END = Buffer.from('\r\n\r\n');
/** Bytes read at most: a head and a body to frame, and a little past them. */
const READ_CAP = 1024 * 1024;

/** Where the first final answer in `bytes` ends (interim 1xx answers skipped), or -1 when it cannot be told yet or at all. */
function answerEnd(bytes: Buffer): number | 'unframed' {
  let at = 0;
  for (;;) {
    const headEnd = bytes.indexOf(HEAD_END, at);
    if (headEnd < 0) return -1;
    const head = bytes.subarray(at, headEnd).toString('latin1');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? NaN);
    if (!Number.isInteger(status)) return 'unframed';
    at = headEnd + 4;
    if (status >= 100 && status < 200) continue;
    if (status === 204 || status === 304) return at;
    // a length said once as one number frames the body; chunks, lists and bodies ended by the close are not looked past
    if (/^transfer-encoding:/im.test(head)) return 'unframed';
    const lengths = [...head.matchAll(/^content-length:\s*(\d+)\s*$/gim)];
    if (lengths.length !== 1) return 'unframed';
    return at + Number(lengths[0]![1]);
  }
}

/** Requests the probe sends one after another on its connection: a server may answer a connection's first ones once. */
const ASKS = 3;

/**
 * Whether a server sends answers to no request: a request on a kept-alive connection, its answer framed by its
 * Content-Length, then `waitMs` of listening for more, three times over on the same connection. A server that answers
 * twice, or floods a connection, sends bytes there; one that answers once sends nothing. Answers this cannot frame
 * (chunks, bodies ended by the close) are not looked past (false). HTTP/1.x over plain TCP only.
 */
export function sendsUnaskedAnswers(url: string, spec: HttpRequestSpec = {}, timeoutMs = 5000, waitMs = 50): Promise<boolean> {
  const target = new URL(url);
  const headers = Object.entries({ host: target.host, ...spec.headers })
    .filter(([name]) => name.toLowerCase() !== 'connection')
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const length = spec.body ? `content-length: ${spec.body.length}\r\n` : '';
  const request = Buffer.concat([
    Buffer.from(`${spec.method ?? 'GET'} ${target.pathname}${target.search} HTTP/1.1\r\n${headers}${length}\r\n`, 'latin1'),
    spec.body ?? Buffer.alloc(0),
  ]);
  return new Promise((resolve) => {
    const socket = net.connect({ host: target.hostname.replace(/^\[|\]$/g, ''), port: Number(target.port || 80) });
    let received = Buffer.alloc(0);
    // where the answer to the latest request begins, and where it ends once framed
    let from = 0;
    let end = -1;
    let asked = 0;
    let listening: NodeJS.Timeout | undefined;
    const ask = () => {
      asked++;
      from = received.length;
      end = -1;
      socket.write(request);
    };
    const done = (verdict: boolean) => {
      clearTimeout(deadline);
      clearTimeout(listening);
      socket.destroy();
      resolve(verdict);
    };
    const deadline = setTimeout(() => done(false), timeoutMs);
    const heardMore = () => end >= 0 && received.length > end;
    socket.on('error', () => done(heardMore()));
    socket.on('close', () => done(heardMore()));
    socket.on('data', (chunk: Buffer) => {
      if (received.length < READ_CAP) received = Buffer.concat([received, chunk]);
      if (end === -1) {
        const at = answerEnd(received.subarray(from));
        if (at === 'unframed') return done(false);
        if (at !== -1) {
          end = from + at;
          // the verdict (or the next request) waits one turn of the event loop past the timer: bytes that came while
          // this process was stalled (a busy machine) are read first
          listening = setTimeout(() => setImmediate(() => (heardMore() ? done(true) : asked < ASKS ? ask() : done(false))), waitMs);
        }
      }
      if (heardMore()) done(true);
    });
    ask();
  });
}
