import net from 'node:net';
import { answerCases, EXPECTED_BODY } from './http-answers.js';

// A scripted HTTP/1.1 server for the engines' conformance: for each request it reads, it sends exact bytes (from
// test/support/http-answers.ts, or a behaviour of its own: heads cut and sent apart, answers nobody asked for, a body
// dripped a byte at a time, a reset, silence), and it counts what it sent. The request's path names the case and the
// run (`/<case>/<run>`), so each engine's run of each case has counts of its own.

/** One step of an answer: bytes to write (a final answer the client may count, or not), a pause, the end of the connection. */
export type Step =
  | { readonly write: string | Buffer; readonly answers?: number }
  | { readonly waitMs: number }
  | { readonly close: 'end' | 'reset' }
  | { readonly hang: true };

export interface ConformanceCase {
  readonly name: string;
  /** What the server sends for the nth request of a connection (from 0). */
  readonly steps: (onConnection: number) => readonly Step[];
  /** What a client that frames right makes of it: every final answer counted, or a failure it names. */
  readonly right: 'counts every answer' | 'names a failure';
  /** The body each answer is expected to carry. */
  readonly body: string;
  /** Answers whose body is not the expected one, per answer sent (the wrong-body cases). */
  readonly wrongBodies?: boolean;
  /** The request's method (GET unless said). */
  readonly method?: 'GET' | 'HEAD';
}

/** What the server sent for one run. */
export interface ServerCount {
  requests: number;
  /** Final answers whose bytes were written whole (interim ones are part of the answer after them). */
  answers: number;
  connections: number;
}

/** Requests of a run a broken case answers before the server goes quiet. */
const QUIET_AFTER = 12;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ok = (body: string) => `HTTP/1.1 200 OK\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const bigBody = 'x'.repeat(100 * 1024);
const bigHead = `HTTP/1.1 200 OK\r\nX-Padding: ${'p'.repeat(8 * 1024)}\r\nContent-Length: ${bigBody.length}\r\n\r\n`;
let headCuts = 0;

/** The cases of test/support/http-answers.ts, each request answered with the case's answers in turn. */
const fromAnswerCases: ConformanceCase[] = answerCases.map((c) => {
  const broken = c.answers.some((a) => 'error' in a.framed);
  return {
    name: c.name,
    steps: (n) => {
      const answer = c.answers[n % c.answers.length]!;
      const good = 'error' in answer.framed ? 0 : 1;
      const last = n % c.answers.length === c.answers.length - 1;
      return [{ write: Buffer.from(answer.bytes, 'latin1'), answers: good }, ...(c.thenCloses && last ? [{ close: 'end' } as const] : [])];
    },
    right: broken ? 'names a failure' : 'counts every answer',
    body: EXPECTED_BODY,
    ...(c.headOnly ? { method: 'HEAD' as const } : {}),
    wrongBodies: c.answers.some((a) => !('error' in a.framed) && a.framed.bodyOk === false),
  };
});

/** Behaviours over time and over requests, which a stream of bytes alone cannot say. */
const behaviours: ConformanceCase[] = [
  {
    name: 'an 8 KB head cut at a different offset on each answer, then a 100 KB body',
    steps: () => {
      const at = 1 + ((headCuts++ * 97) % (bigHead.length - 1));
      return [{ write: bigHead.slice(0, at) }, { waitMs: 2 }, { write: bigHead.slice(at) + bigBody, answers: 1 }];
    },
    right: 'counts every answer',
    body: bigBody,
  },
  {
    name: 'every request answered twice',
    steps: () => [{ write: ok(EXPECTED_BODY) + ok(EXPECTED_BODY), answers: 2 }],
    right: 'names a failure',
    body: EXPECTED_BODY,
  },
  {
    name: 'thousands of answers to one request',
    steps: (n) => [{ write: ok(EXPECTED_BODY).repeat(n === 0 ? 5000 : 1), answers: n === 0 ? 5000 : 1 }],
    right: 'names a failure',
    body: EXPECTED_BODY,
  },
  {
    name: 'a body dripped a byte at a time',
    steps: () => [
      { write: `HTTP/1.1 200 OK\r\nContent-Length: ${EXPECTED_BODY.length}\r\n\r\n` },
      ...[...EXPECTED_BODY].flatMap((ch, i) => [{ waitMs: 1 }, { write: ch, answers: i === EXPECTED_BODY.length - 1 ? 1 : 0 }]),
    ],
    right: 'counts every answer',
    body: EXPECTED_BODY,
  },
  {
    name: 'a reset in the middle of a body',
    steps: (n) =>
      n < 1
        ? [{ write: ok(EXPECTED_BODY), answers: 1 }]
        : [{ write: `HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nHello` }, { close: 'reset' }],
    right: 'names a failure',
    body: EXPECTED_BODY,
  },
  {
    name: 'Connection: close on every third answer, requests behind it unanswered',
    steps: (n) =>
      n % 3 === 2
        ? [{ write: `HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 11\r\n\r\n${EXPECTED_BODY}`, answers: 1 }, { close: 'end' }]
        : [{ write: ok(EXPECTED_BODY), answers: 1 }],
    right: 'counts every answer',
    body: EXPECTED_BODY,
  },
  { name: 'a server that never answers', steps: () => [{ hang: true }], right: 'names a failure', body: EXPECTED_BODY },
];

export const conformanceCases: readonly ConformanceCase[] = [...fromAnswerCases, ...behaviours];

/** The server: `url(caseIndex, run)` is where a run of a case sends its requests, `count(caseIndex, run)` what it sent. */
export async function startConformanceServer(): Promise<{
  url: (caseIndex: number, run: string) => string;
  count: (caseIndex: number, run: string) => ServerCount;
  close: () => Promise<void>;
}> {
  const counts = new Map<string, ServerCount>();
  const countOf = (key: string) => {
    let c = counts.get(key);
    if (!c) counts.set(key, (c = { requests: 0, answers: 0, connections: 0 }));
    return c;
  };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let pending = '';
    let onConnection = 0;
    let key: string | undefined;
    let done = false;
    // answers leave in the order of their requests, each after the one before it
    let queue = Promise.resolve();
    socket.on('data', (data: Buffer) => {
      pending += data.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
        const head = pending.slice(0, end);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) break;
        pending = pending.slice(end + 4 + length);
        const path = head.split(' ')[1] ?? '/';
        const [, caseIndex, run] = /^\/(\d+)\/([\w.-]+)/.exec(path) ?? [];
        const c = conformanceCases[Number(caseIndex)];
        if (!c || !run) {
          socket.destroy();
          return;
        }
        if (!key) {
          key = `${caseIndex}/${run}`;
          countOf(key).connections++;
        }
        const count = countOf(key);
        count.requests++;
        // a request that asks the server to close after its answer (HTTP/1.0 without keep-alive, Connection: close) is
        // answered and the connection closed, unless the scripted answer keeps it alive, as a real server does
        const http10 = / HTTP\/1\.0$/.test(head.split('\r\n')[0] ?? '');
        const connection = /\r\nconnection: *([^\r]*)/i.exec(head)?.[1]?.toLowerCase() ?? '';
        const asksClose = connection.includes('close') || (http10 && !connection.includes('keep-alive'));
        // a broken case's first answers show what an engine makes of it; past them the server goes quiet, so an engine
        // that reconnects at once after each failure (wrk) waits instead of spinning a core for the rest of its run
        const quiet = c.right === 'names a failure' && count.requests > QUIET_AFTER;
        const scripted = quiet ? [{ hang: true } as const] : c.steps(onConnection++);
        const keptAlive = scripted.some((step) => 'write' in step && /\r\nconnection: *keep-alive/i.test(String(step.write)));
        const steps = asksClose || (http10 && !keptAlive) ? [...scripted, { close: 'end' } as const] : scripted;
        queue = queue.then(async () => {
          for (const step of steps) {
            if (done) return;
            if ('write' in step) {
              await new Promise<void>((resolve) => socket.write(step.write, () => resolve()));
              if (!socket.destroyed) count.answers += step.answers ?? 0;
            } else if ('waitMs' in step) await pause(step.waitMs);
            else if ('close' in step) {
              done = true;
              if (step.close === 'reset') socket.resetAndDestroy();
              else socket.end();
            } else return;
          }
        });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: (caseIndex, run) => `http://127.0.0.1:${port}/${caseIndex}/${run}`,
    count: (caseIndex, run) => countOf(`${caseIndex}/${run}`),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
