import { performance } from 'node:perf_hooks';
import type { FailureKind } from '@bench/core';
import { classifyError } from '@bench/core/load-thread';
import { ResponseParser, type AnswerSink, type ParsedAnswer } from './response-parser.js';
import type { AnswerMemo } from './answer-memo.js';
import type { BodyMatcher } from './body-matcher.js';
import type { OpenSocket, SocketOwner, WireSocket } from './wire-socket.js';

// `performance` imported, not the global (a getter on globalThis, looked up at every read);
// read once: `process` keeps its properties in a dictionary, so process.hrtime.bigint() is a slow lookup on every call
const hrtime = process.hrtime;
const hrtimeNs = () => hrtime.bigint();
// The instant of the read being framed (performance.now(), ms), for every connection of the thread: one clock read per
// read, kept in an object's field (a double stored in place; a module variable would box a new number at each read).
const readAt = { ms: 0 };

/**
 * What a connection tells its driver. Times are performance.now() readings (ms, doubles: no allocation per request);
 * `nowNs`, a process.hrtime.bigint() reading, places a failure in the run's seconds.
 */
export interface ConnectionEvents {
  /** The TCP connection is up, `connectMs` after it was asked for. */
  connected(connection: WireConnection, connectMs: number): void;
  /** An answer to the oldest request in flight, sent at `sentMs` (and meant for `intendedMs`), read at `nowMs`. */
  answered(connection: WireConnection, answer: ParsedAnswer, sentMs: number, intendedMs: number, nowMs: number): void;
  /** The connection failed (refused, reset, malformed answer, timed out) with `lost` requests in flight; it is closed. */
  failed(connection: WireConnection, kind: FailureKind, message: string, lost: number, nowNs: bigint): void;
  /** The connection ended (closed by either side, or failed) and will not be used again. */
  ended(connection: WireConnection): void;
}

export interface ConnectionSetup {
  /** A numeric IPv4 or IPv6 address (the engine resolved the URL's host name before load). */
  readonly address: string;
  readonly port: number;
  /** The request's bytes, `depth` times back to back, encoded once for the run: a pipeline of n sends the first n. */
  readonly requests: Buffer;
  /** A body checker for each connection: its state lives across the reads of one body, which interleave with others'. */
  readonly matcher: () => BodyMatcher;
  readonly headOnly: boolean;
  /** The most requests a connection keeps in flight (its pipelining depth). */
  readonly depth: number;
  /** One read buffer for every connection of the thread: each read is parsed before the next can happen. */
  readonly readBuffer: Buffer;
  /** The run's last answer read whole, recalled when a read brings the same bytes (none: every answer is framed). */
  readonly memo: AnswerMemo | undefined;
  /** The sockets the run's connections are made on: libuv's handles, or Node's public net sockets. */
  readonly openSocket: OpenSocket;
  readonly events: ConnectionEvents;
}

/**
 * One keep-alive connection on a socket: it writes the pre-encoded request, keeps the send time of each request
 * in flight (several when pipelining), and frames the answers as they arrive, in order, from a read buffer shared by
 * the thread's connections (no buffer allocated per read).
 */
export class WireConnection implements SocketOwner, AnswerSink {
  private readonly socket: WireSocket;
  private readonly parser: ResponseParser;
  private readonly matcher: BodyMatcher;
  /** The send and intended times of the requests in flight, oldest first from `oldest`, in a ring of the pipeline's depth. */
  private readonly times: Float64Array;
  private oldest = 0;
  private count = 0;
  /** When the connection was asked for. */
  readonly askedAtMs = performance.now();
  /** When the first read arrived on this connection (0 before it). */
  firstReadMs = 0;
  connected = false;
  /** Answers read on this connection. */
  answers = 0;
  /** Answers the read being framed may still hold: the requests that were in flight when it was read. */
  private answerable = 0;
  private done = false;

  constructor(private readonly setup: ConnectionSetup) {
    this.times = new Float64Array(2 * setup.depth);
    this.matcher = setup.matcher();
    // the connection hears its own socket and its own parser: no closures per connection
    this.parser = new ResponseParser(this.matcher, this, setup.headOnly, setup.memo);
    this.socket = setup.openSocket(this, setup.address, setup.port, setup.readBuffer);
  }

  socketConnected(): void {
    this.connected = true;
    this.setup.events.connected(this, performance.now() - this.askedAtMs);
  }

  socketRead(bytes: number): void {
    const now = (readAt.ms = performance.now());
    if (this.firstReadMs === 0) this.firstReadMs = now;
    // a read's answers can only be to the requests in flight when it was read (one sent while framing it cannot be)
    this.answerable = this.count;
    const error = this.parser.feed(this.setup.readBuffer, bytes);
    if (error) this.fail('exceptions', error);
  }

  socketEnded(): void {
    // the server closed: an answer framed by the close is complete now; one cut short failed
    readAt.ms = performance.now();
    this.answerable = this.count;
    const error = this.parser.end();
    if (error) this.fail('receive', error);
    else if (this.count > 0) this.fail('receive', 'the server closed the connection with requests unanswered');
    else this.close();
  }

  socketErrored(error: NodeJS.ErrnoException): void {
    // an idle connection reset (the open loop's, between requests due) lost no request: it only ends, as on the native core
    if (this.connected && this.count === 0) return this.close();
    this.fail(this.connected ? classifyError(error) : 'connect', error.message);
  }

  /** Requests sent and not yet answered. */
  get inFlight(): number {
    return this.count;
  }

  /** When the oldest request in flight was sent; undefined when none is. */
  get oldestSentMs(): number | undefined {
    return this.count > 0 ? this.times[2 * this.oldest] : undefined;
  }

  /**
   * Sends `count` requests at once (pipelined when more than one); `intendedMs`, when given, is when the first was due.
   * `nowMs`: the clock as the caller just read it (the instant of the read whose answer frees this send), else read here.
   */
  send(count: number, intendedMs?: number, nowMs?: number): void {
    if (this.done || count <= 0) return;
    const now = nowMs ?? performance.now();
    const depth = this.setup.depth;
    if (this.count + count > depth) throw new Error(`${this.count + count} requests in flight on a pipeline of ${depth}`);
    // in flight before the write: a write the kernel refuses at once (a reset connection) fails them, counted, in it
    for (let i = 0; i < count; i++) {
      const ring = this.oldest + this.count++;
      const slot = 2 * (ring < depth ? ring : ring - depth);
      this.times[slot] = now;
      this.times[slot + 1] = intendedMs ?? now;
    }
    // a pipeline's requests leave in one write, a view of the run's own bytes (no copy made per send)
    const { requests } = this.setup;
    this.socket.write(count === depth ? requests : requests.subarray(0, (requests.length / depth) * count));
  }

  /** Fails the requests in flight (a timeout) and closes. */
  fail(kind: FailureKind, message: string): void {
    if (this.done) return;
    const lost = Math.max(1, this.count);
    this.count = 0;
    this.setup.events.failed(this, kind, message, lost, hrtimeNs());
    this.close();
  }

  /** Closes the connection; requests in flight are dropped without a word (the run is over, or they were counted). */
  close(): void {
    if (this.done) return;
    this.done = true;
    this.count = 0;
    this.socket.destroy();
    this.setup.events.ended(this);
  }

  /** What differed in the last answer whose body was not the expected one. */
  bodyMismatch(): string {
    return this.matcher.mismatch();
  }

  get closed(): boolean {
    return this.done;
  }

  parsedAnswer(answer: ParsedAnswer): void {
    // closed while the rest of a read was being framed: those answers belong to no one now
    if (this.done) return;
    // one beyond the requests in flight when its read began: a server answering twice, or a proxy out of step
    if (this.answerable === 0) {
      this.fail('exceptions', 'malformed answer: an answer to no request');
      return;
    }
    this.answerable--;
    const sentMs = this.times[2 * this.oldest]!;
    const intendedMs = this.times[2 * this.oldest + 1]!;
    this.oldest = this.oldest + 1 === this.setup.depth ? 0 : this.oldest + 1;
    this.count--;
    this.answers++;
    this.setup.events.answered(this, answer, sentMs, intendedMs, readAt.ms);
  }
}
