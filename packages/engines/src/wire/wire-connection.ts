import net from 'node:net';
import { classifyError, type FailureKind } from '@bench/core';
import { ResponseParser, type ParsedAnswer } from './response-parser.js';
import type { BodyMatcher } from './body-matcher.js';

/** What a connection tells its driver. Times are process.hrtime.bigint() readings. */
export interface ConnectionEvents {
  /** The TCP connection is up, `connectNs` after it was asked for. */
  connected(connection: WireConnection, connectNs: bigint): void;
  /** An answer to the oldest request in flight, sent at `sentNs` (and meant for `intendedNs`), read at `nowNs`. */
  answered(connection: WireConnection, answer: ParsedAnswer, sentNs: bigint, intendedNs: bigint, nowNs: bigint): void;
  /** The connection failed (refused, reset, malformed answer, timed out) with `lost` requests in flight; it is closed. */
  failed(connection: WireConnection, kind: FailureKind, message: string, lost: number, nowNs: bigint): void;
  /** The connection ended (closed by either side, or failed) and will not be used again. */
  ended(connection: WireConnection): void;
}

export interface ConnectionSetup {
  readonly host: string;
  readonly port: number;
  /** The request's bytes, encoded once for the run. */
  readonly request: Buffer;
  readonly matcher: BodyMatcher;
  readonly headOnly: boolean;
  /** One read buffer for every connection of the thread: each read is parsed before the next can happen. */
  readonly readBuffer: Buffer;
  readonly events: ConnectionEvents;
}

/**
 * One keep-alive connection on a raw socket: it writes the pre-encoded request, keeps the send time of each request
 * in flight (several when pipelining), and frames the answers as they arrive, in order, from a read buffer shared by
 * the thread's connections (Node's onread: no buffer allocated per read).
 */
export class WireConnection {
  readonly socket: net.Socket;
  private readonly parser: ResponseParser;
  private readonly sent: bigint[] = [];
  private readonly intended: bigint[] = [];
  /** When the connection was asked for. */
  readonly askedAtNs = process.hrtime.bigint();
  /** When the last read arrived: every answer framed from it is timed at this instant. */
  private readAt = 0n;
  connected = false;
  /** Answers read on this connection. */
  answers = 0;
  private done = false;

  constructor(private readonly setup: ConnectionSetup) {
    this.parser = new ResponseParser(setup.matcher, (answer) => this.answer(answer), setup.headOnly);
    this.socket = net.connect({
      host: setup.host,
      port: setup.port,
      noDelay: true,
      onread: {
        buffer: setup.readBuffer,
        callback: (bytes) => {
          this.readAt = process.hrtime.bigint();
          const error = this.parser.feed(setup.readBuffer, bytes);
          if (error) this.fail('exceptions', error);
          return true;
        },
      },
    });
    this.socket.on('connect', () => {
      this.connected = true;
      setup.events.connected(this, process.hrtime.bigint() - this.askedAtNs);
    });
    this.socket.on('error', (error) => this.fail(this.connected ? classifyError(error) : 'connect', error.message));
    this.socket.on('end', () => {
      // the server closed: an answer framed by the close is complete now; one cut short failed
      this.readAt = process.hrtime.bigint();
      const error = this.parser.end();
      if (error) this.fail('receive', error);
      else if (this.sent.length > 0) this.fail('receive', 'the server closed the connection with requests unanswered');
      else this.close();
    });
    this.socket.on('close', () => this.close());
  }

  /** Requests sent and not yet answered. */
  get inFlight(): number {
    return this.sent.length;
  }

  /** When the oldest request in flight was sent; undefined when none is. */
  get oldestSentNs(): bigint | undefined {
    return this.sent[0];
  }

  /** Sends `count` requests at once (pipelined when more than one); `intendedNs`, when given, is when the first was due. */
  send(count: number, intendedNs?: bigint): void {
    if (this.done || count <= 0) return;
    const now = process.hrtime.bigint();
    if (count === 1) this.socket.write(this.setup.request);
    else {
      this.socket.cork();
      for (let i = 0; i < count; i++) this.socket.write(this.setup.request);
      this.socket.uncork();
    }
    for (let i = 0; i < count; i++) {
      this.sent.push(now);
      this.intended.push(intendedNs ?? now);
    }
  }

  /** Fails the requests in flight (a timeout) and closes. */
  fail(kind: FailureKind, message: string): void {
    if (this.done) return;
    const lost = Math.max(1, this.sent.length);
    this.sent.length = 0;
    this.intended.length = 0;
    this.setup.events.failed(this, kind, message, lost, this.readAt || process.hrtime.bigint());
    this.close();
  }

  /** Closes the connection; requests in flight are dropped without a word (the run is over, or they were counted). */
  close(): void {
    if (this.done) return;
    this.done = true;
    this.sent.length = 0;
    this.intended.length = 0;
    this.socket.destroy();
    this.setup.events.ended(this);
  }

  get closed(): boolean {
    return this.done;
  }

  private answer(answer: ParsedAnswer): void {
    // closed while the rest of a read was being framed: those answers belong to no one now
    if (this.done) return;
    const sentNs = this.sent.shift();
    const intendedNs = this.intended.shift();
    if (sentNs === undefined || intendedNs === undefined) {
      this.fail('exceptions', 'malformed answer: an answer to no request');
      return;
    }
    this.answers++;
    this.setup.events.answered(this, answer, sentNs, intendedNs, this.readAt);
  }
}
