import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeLatencyHistogram, type BodyExpectation, type LoadShape } from '@bench/core';
import { builtinEngines } from '@bench/runner';

// The wire engine against a server of the test's own on raw sockets, which counts every request it reads, answers in
// the framing the path asks for (5 ms after it read the request, or as long as `holds` says), and notes how many
// requests a connection had sent before it answered them. Every case runs on each of wire's cores, one test file a
// core (wire-native, wire-js and wire-net.test.ts, run side by side): the native loop (C, built by npm run build), the
// JavaScript one on libuv's handles, and the JavaScript one on Node's public net sockets (where process.binding is
// refused). Each file's call makes its own server and counters.

// the variant a measurement names for each --core
const variants = { native: 'native core', js: 'js core', net: 'js core on net sockets' };

export function wireSuite(core: keyof typeof variants): void {
  const engine = builtinEngines.find((e) => e.name === 'wire')!;
  const hello = Buffer.from('Hello World');
  const expectHello: BodyExpectation = { kind: 'exact', length: hello.length, bytes: () => hello };

  const answers: Record<string, (n: number) => string> = {
    '/length': () => `HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nHello World`,
    '/chunked': () => `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nHello \r\n5\r\nWorld\r\n0\r\n\r\n`,
    '/chunked-wrong': () => `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nHello \r\n5\r\nWurld\r\n0\r\n\r\n`,
    // the rest of the body comes 2 ms after its head and first bytes ('\u0000' marks the pause), cut at 3 or 5 bytes by
    // turns: the reads of many connections interleave, each in the middle of a body cut elsewhere
    '/split': (n) => `HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n${n % 2 ? 'Hel\u0000lo World' : 'Hello\u0000 World'}`,
    // the head itself cut in two, 2 ms apart, in the middle of a header's name or of its blank line by turns
    '/split-head': (n) =>
      n % 2
        ? `HTTP/1.1 200 OK\r\nContent-Le\u0000ngth: 11\r\n\r\nHello World`
        : `HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\u0000\nHello World`,
    // answers with no body: a 204, and a 200 of length 0 (each ends with its read)
    '/empty': (n) => (n % 2 ? 'HTTP/1.1 204 No Content\r\n\r\n' : 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'),
    // every 7th answer of the run has a wrong body of the right length, the others the same bytes again and again
    '/sometimes-wrong': (n) => `HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n${n % 7 ? 'Hello World' : 'Hello Wurld'}`,
    // answers that close their connection: with Connection: close, and one framed by the close itself (HTTP/1.0, no
    // length; '\u0001' tells the server to end the connection after it)
    '/close': () => `HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 11\r\n\r\nHello World`,
    '/until-close': () => `HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nHello World\u0001`,
    // an answer, then its connection reset while idle ('\u0002')
    '/then-reset': () => `HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nHello World\u0002`,
    // an answer cut short by the close: its head says 11 bytes, 5 come
    '/cut': () => `HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nHello\u0001`,
    // the same answer, held (`holds`)
    '/hold': () => `HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nHello World`,
    '/after-20ms': () => `HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nHello World`,
    // the 50th answer of the run is not HTTP
    '/malformed': (n) => (n === 50 ? 'XYZZY\r\n\r\n' : `HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nHello World`),
  };

  // answers held longer: every answer 300 ms, or 20 ms to the microsecond
  const holds: Record<string, number> = { '/hold': 300, '/after-20ms': 20 };

  let requests = 0;
  let connections = 0;
  /** The most requests one connection had waiting when the server answered them (it answers after 5 ms, all at once). */
  let deepest = 0;
  /** How long the server held each answer it held longer than 5 ms, from its read of the request to its write (ms). */
  let held: number[] = [];
  /** The most requests one connection sent. */
  let busiest = 0;
  let server: net.Server;
  let base = '';

  beforeAll(async () => {
    server = net.createServer((socket) => {
      connections++;
      let sent = 0;
      let buffered = '';
      let waiting: string[] = [];
      let timer: NodeJS.Timeout | undefined;
      socket.on('data', (data) => {
        const readAt = performance.now();
        let holdMs = 5;
        buffered += data.toString('latin1');
        for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
          const path = buffered.slice(0, end).split(' ')[1] ?? '/';
          holdMs = holds[path] ?? holdMs;
          buffered = buffered.slice(end + 4);
          requests++;
          busiest = Math.max(busiest, ++sent);
          waiting.push(answers[path]?.(requests) ?? 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
        }
        timer ??= setTimeout(() => {
          // a timer may fire up to a millisecond early: the hold is at least what it says
          while (performance.now() - readAt < holdMs);
          if (holdMs > 5) held.push(performance.now() - readAt);
          deepest = Math.max(deepest, waiting.length);
          const all = waiting.join('');
          const [now, ...later] = all.replace('\u0001', '').replace('\u0002', '').split('\u0000');
          socket.write(now ?? '');
          if (all.endsWith('\u0001')) socket.end();
          // '\u0002': the connection reset 5 ms after its answer, idle by then
          if (all.endsWith('\u0002')) setTimeout(() => socket.resetAndDestroy(), 5);
          if (later.length > 0) setTimeout(() => socket.write(later.join('')), 2);
          waiting = [];
          timer = undefined;
        }, holdMs);
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** One run: a GET of `url` that expects hello, on 4 kept-alive connections unless `shape` says otherwise. */
  function runAt(url: string, shape: Partial<LoadShape>, options: Record<string, unknown>, signal?: AbortSignal) {
    return engine.run({
      url,
      request: { method: 'GET', path: new URL(url).pathname, headers: {} },
      expect: expectHello,
      shape: { connections: 4, keepAlive: true, timeoutSeconds: 2, ...shape },
      options,
      ...(signal ? { signal } : {}),
    });
  }

  async function measure(path: string, shape: Partial<LoadShape>, options: Record<string, unknown>) {
    requests = 0;
    connections = 0;
    deepest = 0;
    busiest = 0;
    held = [];
    const m = await runAt(base + path, { requests: 400, ...shape }, options);
    // the server has read every request the engine sent by the time the run is over
    await new Promise((resolve) => setTimeout(resolve, 50));
    return m;
  }

  /** The URL of a port on which nothing listens any more: every connect to it is refused. */
  async function refusingUrl() {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as net.AddressInfo).port}/`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    return url;
  }

  /** A 5 s run of /length stopped after `seconds`, as a warm-up is stopped once its throughput settles. */
  // the stop's clock starts before the engine's thread does: 1.6 s leaves the thread 0.6 s to start and still cuts the
  // period inside its second second (1.2 s did not, on Node 22 beside five other files: a 0.96 s period)
  function stoppedAfter(seconds: number, options: Record<string, unknown>, shape: Partial<LoadShape> = {}) {
    return runAt(`${base}/length`, { durationSeconds: 5, ...shape }, options, AbortSignal.timeout(seconds * 1000));
  }

  describe(`the wire engine, ${core} core`, () => {
    it('runs on the core asked for', () => {
      const refused = engine.supports(
        { connections: 4, keepAlive: true, timeoutSeconds: 2, requests: 1 },
        { method: 'GET', path: '/', headers: {} },
        expectHello,
        { core },
      );
      // the native core must be built here: CI installs a C compiler (scripts/setup/setup-system.sh) for it
      expect(refused).toEqual({ ok: true });
    });

    it('counts what the server answered: -n exactly, every answer in the histogram, a connection each', async () => {
      const m = await measure('/length', { requests: 400 }, { core });
      expect([m.requests, requests, connections]).toEqual([400, 400, 4]);
      expect(decodeLatencyHistogram(m.histogram!).totalCount).toBe(400);
      expect(m.failures).toEqual({ connect: 0, receive: 0, length: 0, exceptions: 0, timeouts: 0 });
      expect(m.bytes.body).toBe(400 * 11);
      expect(m.connects?.count).toBe(4);
      // each connection's first answer timed from its start, and each counted in the second it opened
      expect(decodeLatencyHistogram(m.connects!.firstByte!.histogram).totalCount).toBe(4);
      expect(m.connects!.firstByte!.latency.min).toBeGreaterThanOrEqual(m.connects!.latency.min);
      expect(m.seconds?.reduce((sum, s) => sum + (s.newConnections ?? 0), 0)).toBe(4);
      // the measurement names the core that ran it (results give it after the engine's version)
      expect(m.engineVariant).toBe(variants[core]);
    });

    it('reads chunked bodies and checks them whole', async () => {
      const right = await measure('/chunked', { requests: 100 }, { core });
      expect([right.requests, right.failures.length]).toEqual([100, 0]);
      expect(right.bytes.body).toBe(100 * 11);
      const wrong = await measure('/chunked-wrong', { requests: 100 }, { core });
      expect([wrong.requests, wrong.failures.length]).toEqual([100, 100]);
      expect(wrong.errorSamples).toEqual(['wrong body (11 bytes, 11 expected), from byte 6: "Wurld"']);
    });

    it('checks each body on its own connection while the reads of many connections interleave', async () => {
      const m = await measure('/split', { requests: 400, connections: 20 }, { core });
      expect([m.requests, requests, m.failures.length]).toEqual([400, 400, 0]);
    });

    it('counts an answer without a body as soon as its head is read', async () => {
      const m = await measure('/empty', { requests: 100, connections: 1 }, { core });
      // each is a body other than the one expected, counted, and none waits for a timeout
      expect([m.requests, requests, m.failures.length, m.failures.timeouts, m.bytes.body]).toEqual([100, 100, 100, 0, 0]);
    });

    it('frames a head that arrives in two reads', async () => {
      const m = await measure('/split-head', { requests: 200, connections: 10 }, { core });
      expect([m.requests, requests, m.failures.length, m.failures.exceptions, m.bytes.body]).toEqual([200, 200, 0, 0, 200 * 11]);
    });

    it('checks every answer whose bytes repeat the last one read whole, and finds each wrong one among them', async () => {
      const m = await measure('/sometimes-wrong', { requests: 700, connections: 5 }, { core });
      expect([m.requests, requests, m.failures.length]).toEqual([700, 700, 100]);
    });

    it('counts a malformed answer as one failure with its sample, and carries on on a new connection', async () => {
      const m = await measure('/malformed', { requests: 200, connections: 1 }, { core });
      expect(m.failures.exceptions).toBe(1);
      expect(m.errorSamples).toContainEqual(expect.stringMatching(/^malformed answer: not an HTTP\/1 status line: "XYZZY"/));
      // the one that failed counts among the 200, answered or failed
      expect(m.requests).toBe(199);
      expect(connections).toBe(2);
    });

    it('counts an answer the close cut short as a failed receive, on every core alike', async () => {
      const m = await measure('/cut', { requests: 20, connections: 2 }, { core });
      expect([m.requests, m.failures.receive, m.failures.exceptions, requests]).toEqual([0, 20, 0, 20]);
    });

    it('opens a new connection for each answer that closes its own, framed by a length or by the close', async () => {
      const closing = await measure('/close', { requests: 50 }, { core });
      expect([closing.requests, requests, connections, closing.keepAliveResponses, closing.connects?.count]).toEqual([50, 50, 50, 0, 50]);
      const framedByClose = await measure('/until-close', { requests: 30, connections: 2 }, { core });
      expect([framedByClose.requests, connections, framedByClose.failures.length, framedByClose.bytes.body]).toEqual([30, 30, 0, 30 * 11]);
    });

    it('counts refused connects as connect failures, tried again, and ends on time', async () => {
      const url = await refusingUrl();
      const started = Date.now();
      const m = await runAt(url, { connections: 2, timeoutSeconds: 1, durationSeconds: 0.5 }, { core });
      expect(m.requests).toBe(0);
      // tried again every 10 ms or so on each of the two connections
      expect(m.failures.connect).toBeGreaterThan(10);
      expect(m.errorSamples).toContainEqual(expect.stringContaining('ECONNREFUSED'));
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('keeps -p requests in flight on each connection, never more', async () => {
      const m = await measure('/length', { requests: 800, connections: 2, pipelining: 8 }, { core });
      expect([m.requests, requests]).toEqual([800, 800]);
      expect(deepest).toBe(8);
      const one = await measure('/length', { requests: 100, connections: 2 }, { core });
      expect([one.requests, deepest]).toEqual([100, 1]);
    });

    it('sends requests the kernel cannot take at once (an 8 MB body each), a write left queued on each connection, and counts every answer', async () => {
      // reads nothing for 100 ms after a connect, then each request's head, and its body as it comes, before answering it
      let bodies = 0;
      const slow = net.createServer((socket) => {
        socket.on('error', () => {}).pause();
        setTimeout(() => socket.resume(), 100);
        let head = '';
        let left = -1;
        let allX = true;
        socket.on('data', (data: Buffer) => {
          let at = 0;
          while (at < data.length) {
            if (left < 0) {
              const end = data.indexOf('\r\n\r\n', at);
              head += data.toString('latin1', at, end < 0 ? data.length : end);
              if (end < 0) return;
              left = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
              [head, allX, at] = ['', true, end + 4];
            }
            const take = Math.min(left, data.length - at);
            allX &&= data.subarray(at, at + take).every((byte) => byte === 120);
            [left, at] = [left - take, at + take];
            if (left > 0) return;
            if (allX) bodies++;
            left = -1;
            socket.write('HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nHello World');
          }
        });
      });
      await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(slow.address() as net.AddressInfo).port}/`;
      const m = await engine.run({
        url,
        request: { method: 'POST', path: '/', headers: {}, body: Buffer.alloc(8 * 1024 * 1024, 'x') },
        expect: expectHello,
        // each answer waits for its 8 MB to be read and checked by the test's own JavaScript: beside three other files
        // (a JVM matrix among them), two of twelve took over 5 s once; the case is that every answer counts, not its time
        shape: { connections: 4, keepAlive: true, timeoutSeconds: 30, requests: 12 },
        options: { core },
      });
      await new Promise<void>((resolve) => slow.close(() => resolve()));
      expect([m.requests, bodies, m.failures.exceptions]).toEqual([12, 12, 0]);
    });

    it('ends its period and its seconds where a stop cut it (a warm-up that settled)', async () => {
      const m = await stoppedAfter(1.6, { core });
      expect(m.durationSeconds).toBeGreaterThan(1);
      expect(m.durationSeconds).toBeLessThan(2);
      expect(m.seconds?.map((second) => second.requests > 0)).toEqual([true, true]);
    });

    it('without keep-alive opens a connection a request, and asks the server to close it', async () => {
      const m = await measure('/length', { requests: 50, keepAlive: false }, { core });
      expect([m.requests, requests, connections, m.connects?.count, m.keepAliveResponses]).toEqual([50, 50, 50, 50, 0]);
    });

    it('closes each connection after --requests-per-connection answers, its pipeline kept within them', async () => {
      const m = await measure('/length', { requests: 30, requestsPerConnection: 3, pipelining: 2 }, { core });
      expect([m.requests, requests, busiest, m.connects?.count, m.failures.length]).toEqual([30, 30, 3, connections, 0]);
      // 10 connections at least (more where the -n budget ran out before a connection's third request)
      expect(connections).toBeGreaterThanOrEqual(10);
      expect(deepest).toBeLessThanOrEqual(2);
    });

    it('times out a request the server never answers, and counts it', async () => {
      // reads every request (so it sees the engine hang up) and answers none
      const silent = net.createServer((socket) => socket.on('error', () => {}).resume());
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/`;
      const m = await runAt(url, { connections: 2, timeoutSeconds: 0.3, durationSeconds: 1 }, { core });
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      expect(m.requests).toBe(0);
      expect(m.failures.timeouts).toBeGreaterThanOrEqual(2);
      expect(m.errorSamples).toContainEqual('no answer within 0.3 s');
    });
  });

  const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

  /** How many requests due in an open loop's period it never sent: its count, which the line its errors carry says too. */
  const neverSent = (m: { errorSamples: readonly string[]; droppedRequests?: number }) => {
    const line = m.errorSamples.map((text) => /^(\d+) request\(s\) due within the period were never sent/.exec(text)?.[1]).find(Boolean);
    // an open loop always carries the count (0 when it sent all): the expect fails where it does not
    expect(Number(line ?? 0)).toBe(m.droppedRequests);
    return m.droppedRequests!;
  };

  /**
   * A period's measurement in which every request due was sent and answered. A machine busy with other work can starve
   * a js core's event loop past a send's time (186 of 200 sent and 14 counted never sent, once, on Node 26's net core
   * beside the files side by side in a clean-clone CI run): each period must account for every request due (sent and
   * seen by the server, or counted never sent), and the best of up to three must send them all.
   */
  async function sendsAllDue(period: () => ReturnType<typeof measure>, due: number) {
    const m = await bestOfThree(
      async () => {
        const each = await period();
        expect([each.requests + neverSent(each), requests]).toEqual([due, each.requests]);
        return each;
      },
      (each) => neverSent(each) === 0,
    );
    expect([m.requests, requests, neverSent(m)]).toEqual([due, due, 0]);
    return m;
  }

  /** A period run again, up to three in all, until one is `good`: the last one run, for the assertions to hold it to. */
  async function bestOfThree<T>(period: () => Promise<T>, good: (m: T) => boolean): Promise<T> {
    let m = await period();
    for (let tries = 1; !good(m) && tries < 3; tries++) m = await period();
    return m;
  }

  // the open loop on each core: the native one (native/open-loop.c) and the js one (open-loop.ts), held to the same cases
  describe(`the wire engine at --rate, ${core} core`, () => {
    it('sends every request due at the rate asked, each timed from its arrival (not from the tick that read it)', async () => {
      // connections enough for a server held up a while by the machine's other work (4 carry the rate; more open when needed)
      const second = () => measure('/after-20ms', { requests: undefined, durationSeconds: 1, rate: 200, connections: 50 }, { core });
      // 200 due in the second, each sent and answered, none dropped
      const m = await sendsAllDue(second, 200);
      expect(m.rate).toEqual({ target: 200, achieved: 200 });
      expect(m.failures).toEqual({ connect: 0, receive: 0, length: 0, exceptions: 0, timeouts: 0 });
      expect(m.engineVariant).toBe(variants[core]);
      // each answer left the server 20 ms (or a little more: its timers run late on a busy machine) after it read the
      // request, and is timed from its send: the hold, the server's read of the request and the way back
      expect(m.latencyUncorrected!.p50).toBeGreaterThanOrEqual(20);
      // the native core reads answers up to a slice (5 ms) after they came, 2.5 ms on average, and must time them from
      // the kernel's stamp of their arrival: a fraction of a millisecond beyond the hold on a quiet machine, 1.8 ms once
      // beside other test files (timed from the read, the median would be 2.5 ms later still); the js cores read each as
      // it comes, on their event loop's time, which a busy machine makes late. A machine busy with other work only adds
      // to the gap (this test's server reads late): the best of up to three seconds is held to the bound, where timing
      // from the read would miss it in every one
      if (core !== 'native') return;
      let gap = m.latencyUncorrected!.p50 - median(held);
      for (let tries = 1; gap >= 2.2 && tries < 3; tries++) {
        const again = await second();
        gap = Math.min(gap, again.latencyUncorrected!.p50 - median(held));
      }
      expect(gap).toBeLessThan(2.2);
    });

    it('sends the requests that fall due in the last millisecond of the period', async () => {
      // 2,000 a second for 0.2 s: the last of the 400 is due half a millisecond before the period ends; a connection
      // for each, so that however late a busy machine makes this test's server answer, every request has one free
      const period = () => measure('/length', { requests: undefined, durationSeconds: 0.2, rate: 2000, connections: 400 }, { core });
      await sendsAllDue(period, 400);
    });

    it('counts the requests due while every connect is refused as never sent, and ends on time', async () => {
      // nothing listens: each connect is refused at once and opened again; after the period none opens, so it ends
      const url = await refusingUrl();
      const started = Date.now();
      const m = await runAt(url, { requests: undefined, durationSeconds: 0.5, rate: 200, connections: 2, timeoutSeconds: 1 }, { core });
      expect([m.requests, neverSent(m)]).toEqual([0, 100]);
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('waits 10 ms after a refused connect before the next, as the closed loop and both cores do', async () => {
      const m = await runAt(
        await refusingUrl(),
        { requests: undefined, durationSeconds: 0.5, rate: 200, connections: 2, timeoutSeconds: 1 },
        { core },
      );
      // two connections, each tried again 10 ms after its refusal: 92-95 tries in 0.5 s on each core, where the js core had tried again at once
      expect(m.failures.connect).toBeGreaterThan(0);
      // (fewer where a busy machine runs the timers late: the bound that matters is the upper one)
      expect(m.failures.connect).toBeGreaterThan(0);
      expect(m.failures.connect).toBeLessThanOrEqual(2 * (500 / 10) + 10);
    });

    it('closes a connection after --requests-per-connection answers and sends it no more', async () => {
      // connections enough that a machine busy with other work drops few (4 dropped a third beside CI's lanes)
      const m = await measure(
        '/length',
        { requests: undefined, durationSeconds: 0.5, rate: 200, connections: 20, requestsPerConnection: 3 },
        { core },
      );
      expect([m.requests + neverSent(m), requests]).toEqual([100, m.requests]);
      expect(m.requests).toBeGreaterThan(50);
      expect(busiest).toBeLessThanOrEqual(3);
      expect(connections).toBeGreaterThanOrEqual(Math.ceil(m.requests / 3));
    });

    it('fails an answer the close cut short as a failed receive, one a request, on every core alike', async () => {
      const m = await measure('/cut', { requests: undefined, durationSeconds: 0.5, rate: 40, connections: 2 }, { core });
      expect(m.failures).toMatchObject({ connect: 0, length: 0, exceptions: 0, timeouts: 0 });
      expect(m.failures.receive + neverSent(m)).toBe(20);
      expect(m.errorSamples.join(' ')).toMatch(/the connection closed in the middle of an answer/);
    });

    it('counts no failure when an idle connection is reset, on every core alike', async () => {
      // 40 a second on up to 4 connections: each answered, its connection reset 5 ms later while it waits for the next (due 25 ms after)
      const m = await measure('/then-reset', { requests: undefined, durationSeconds: 0.5, rate: 40, connections: 4 }, { core });
      // each of the 20 counted one failed receive before; a machine that stalls the client past the 20 ms between the
      // reset and the next request due may still land some on a request in flight (5 and 7 of 20 seen beside three
      // other test runs on two cores)
      const counts = JSON.stringify({ requests: m.requests, failures: m.failures, neverSent: m.droppedRequests, errors: m.errorSamples });
      expect(m.failures, counts).toMatchObject({ connect: 0, length: 0, exceptions: 0, timeouts: 0 });
      expect(m.failures.receive, counts).toBeLessThan(10);
      expect(m.requests + m.failures.receive + neverSent(m), counts).toBe(20);
    });

    it('fails the requests pipelined behind an answer that closes its connection, as failed receives', async () => {
      const m = await measure('/close', { requests: undefined, durationSeconds: 0.5, rate: 400, connections: 2, pipelining: 4 }, { core });
      // every request due is answered, failed behind a close, or never sent: none forgotten
      expect(m.failures.receive).toBeGreaterThan(0);
      expect(m.failures).toMatchObject({ connect: 0, length: 0, exceptions: 0, timeouts: 0 });
      expect(m.requests + m.failures.receive + neverSent(m)).toBe(200);
    });

    it('times requests from when they were due while the server holds every answer, and counts those never sent', async () => {
      // 100 a second need 30 connections at 300 ms an answer: 4 carry about 16 in the second
      const period = () => measure('/hold', { requests: undefined, durationSeconds: 1, rate: 100, connections: 4 }, { core });
      // a machine busy with other work can make a js core read its answers late (a p50 of 399.98 ms against a 300 ms
      // hold, once, on Node 26's net core beside the files side by side in a clean-clone CI run): the best of up to three
      // periods is held to the bound, and every assertion below to that period
      const m = await bestOfThree(period, (each) => each.latencyUncorrected!.p50 < median(held) + 50);
      expect(m.latencyUncorrected!.p50).toBeGreaterThanOrEqual(300);
      expect(m.latencyUncorrected!.p50).toBeLessThan(median(held) + 50);
      // the requests that waited for a connection count their wait, and the loop says how late it sent them: the last
      // sent waited for a connection an answer (300 ms) freed
      expect(m.latency.p50).toBeGreaterThan(m.latencyUncorrected!.p50 + 150);
      expect(m.lateness!.max).toBeGreaterThan(150);
      // every request due was answered (those in flight at the period's end too) or counted as never sent
      expect(m.requests).toBe(requests);
      expect(m.requests).toBeLessThan(25);
      expect(m.requests + neverSent(m)).toBe(100);
      expect(m.failures).toEqual({ connect: 0, receive: 0, length: 0, exceptions: 0, timeouts: 0 });
    });
  });

  // what is not a core's own: asked of the native core, in its file
  if (core === 'native')
    describe('the wire engine at --rate', () => {
      it('runs on the native core (--core native takes it)', () => {
        const supported = engine.supports(
          { connections: 4, keepAlive: true, timeoutSeconds: 2, durationSeconds: 1, rate: 100 },
          { method: 'GET', path: '/', headers: {} },
          expectHello,
          { core: 'native' },
        );
        expect(supported).toEqual({ ok: true });
      });

      it('ends its period, its seconds and its achieved rate where a stop cut it', async () => {
        const m = await stoppedAfter(1.6, {}, { rate: 200 });
        expect(m.engineVariant).toBe('native core');
        expect(m.durationSeconds).toBeGreaterThan(1);
        expect(m.durationSeconds).toBeLessThan(2);
        expect(m.seconds).toHaveLength(2);
        // 200 a second over the time it ran, not over the 5 s it was planned for
        expect(m.rate?.achieved).toBeGreaterThan(150);
      });
    });
}
