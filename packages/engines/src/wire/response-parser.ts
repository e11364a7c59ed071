import type { AnswerMemo, FramedAnswer } from './answer-memo.js';
import type { BodyMatcher } from './body-matcher.js';

/** One answer read off a connection: its status, its bytes on the wire (head and body), its body's, and whether it was the expected one. */
export interface ParsedAnswer {
  readonly status: number;
  readonly bytes: number;
  readonly bodyBytes: number;
  readonly bodyMatches: boolean;
  /** The server said it closes the connection after this answer (Connection: close, or HTTP/1.0 without keep-alive). */
  readonly closes: boolean;
}

/** Who hears the answers a parser frames. */
export interface AnswerSink {
  /** An answer, complete; the object is reused for the next answer of any parser. */
  parsedAnswer(answer: ParsedAnswer): void;
}

// one answer object for every parser of the thread: each is read by its sink before the next answer is framed
const answer: FramedAnswer = { status: 0, bytes: 0, bodyBytes: 0, bodyMatches: true, closes: false };

const CR = 13;
const LF = 10;
/** A head larger than this is taken for a stream that is not HTTP. */
const MAX_HEAD_BYTES = 64 * 1024;
const MAX_CHUNK_LINE = 1024;

const enum Framing {
  Interim,
  NoBody,
  Body,
}

const enum State {
  Head,
  Length,
  ChunkSize,
  ChunkData,
  ChunkDataEnd,
  Trailers,
  UntilClose,
}

/** The decimal number between `from` and `to` (spaces and tabs around it allowed), read off the bytes; -1 when there is none. */
function digitsBetween(bytes: Buffer, from: number, to: number): number {
  let at = from;
  while (at < to && (bytes[at] === 32 || bytes[at] === 9)) at++;
  let end = to;
  while (end > at && (bytes[end - 1] === 32 || bytes[end - 1] === 9)) end--;
  if (end === at || end - at > 15) return -1;
  let value = 0;
  for (let i = at; i < end; i++) {
    const digit = bytes[i]! - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 48 && byte <= 57;
const lower = (byte: number) => byte | 0x20;

/** Whether `chunk` holds, from `at`, this header name (lower case, ':' included), in any case. */
function nameIs(chunk: Buffer, at: number, end: number, name: string): boolean {
  if (at + name.length > end) return false;
  for (let i = 0; i < name.length; i++) {
    const expected = name.charCodeAt(i);
    const byte = chunk[at + i]!;
    if (byte !== expected && lower(byte) !== expected) return false;
  }
  return true;
}

/** Whether the line between `at` and `end` starts "HTTP/1.x SSS". */
function isStatusLine(bytes: Buffer, at: number, end: number): boolean {
  return (
    end - at >= 12 &&
    bytes[at] === 72 &&
    bytes[at + 1] === 84 &&
    bytes[at + 2] === 84 &&
    bytes[at + 3] === 80 &&
    bytes[at + 4] === 47 &&
    bytes[at + 5] === 49 &&
    bytes[at + 6] === 46 &&
    bytes[at + 8] === 32 &&
    isDigit(bytes[at + 9]) &&
    isDigit(bytes[at + 10]) &&
    isDigit(bytes[at + 11])
  );
}

/** Whether the bytes between `from` and `to` hold `word` (lower case), in any case. */
function holds(bytes: Buffer, from: number, to: number, word: string): boolean {
  for (let at = from; at + word.length <= to; at++) if (nameIs(bytes, at, to, word)) return true;
  return false;
}

const CLOSE = 1;
const KEEP_ALIVE = 2;

/** What a Connection header's value between `from` and `to` says: CLOSE, KEEP_ALIVE, both or neither. */
function connectionIntent(bytes: Buffer, from: number, to: number): number {
  let at = from;
  while (at < to && (bytes[at] === 32 || bytes[at] === 9)) at++;
  let end = to;
  while (end > at && (bytes[end - 1] === 32 || bytes[end - 1] === 9)) end--;
  // the one token servers send, read at once; a list of tokens is searched
  if (end - at === 10 && nameIs(bytes, at, end, 'keep-alive')) return KEEP_ALIVE;
  if (end - at === 5 && nameIs(bytes, at, end, 'close')) return CLOSE;
  return (holds(bytes, at, end, 'close') ? CLOSE : 0) | (holds(bytes, at, end, 'keep-alive') ? KEEP_ALIVE : 0);
}

/** Whether the bytes between `from` and `to`, spaces and tabs after them dropped, end with `word` (lower case), in any case. */
function endsWith(bytes: Buffer, from: number, to: number, word: string): boolean {
  let end = to;
  while (end > from && (bytes[end - 1] === 32 || bytes[end - 1] === 9)) end--;
  return end - word.length >= from && nameIs(bytes, end - word.length, end, word);
}

/**
 * An incremental HTTP/1.1 response parser for a load generator: answers framed by Content-Length, by chunked
 * transfer coding or by the connection's end, one after another on one connection (pipelining), read from whatever
 * slices the socket hands over. It reads only what framing needs from a head (status, Content-Length,
 * Transfer-Encoding, Connection) and checks bodies through a matcher without copying them. Anything it cannot frame
 * is an error, reported once: the caller drops the connection, so a malformed answer never hangs a run.
 */
export class ResponseParser {
  private state = State.Head;
  /** A head (or a chunk-size line) cut between two reads, copied until its end arrives. */
  private pending: Buffer | undefined;
  private status = 0;
  private closes = false;
  /** How the last head read frames its answer. */
  private framing = Framing.Body;
  private headBytes = 0;
  private bodyBytes = 0;
  private remaining = 0;
  private failed: string | undefined;
  /** Answers completed in the read being fed. */
  private completed = 0;

  constructor(
    private readonly matcher: BodyMatcher,
    private readonly sink: AnswerSink,
    /** HEAD requests: answers carry no body whatever their head says. */
    private readonly headOnly = false,
    /** The run's last answer framed whole from one read of its read buffer, recalled when the same bytes come again. */
    private readonly memo?: AnswerMemo,
  ) {}

  /** Whether an answer is under way (part of it read). */
  get midAnswer(): boolean {
    return this.state !== State.Head || this.pending !== undefined;
  }

  /**
   * Reads the first `length` bytes of `chunk` (valid until the call returns; a read buffer is reused), or all of it;
   * returns an error message when they cannot be HTTP.
   */
  feed(chunk: Buffer, length = chunk.length): string | undefined {
    if (this.failed) return this.failed;
    // a read of the run's read buffer that starts between two answers may be the remembered answer again
    const memo = chunk === this.memo?.source && this.state === State.Head && this.pending === undefined ? this.memo : undefined;
    if (memo?.recall(length, answer)) {
      this.sink.parsedAnswer(answer);
      return undefined;
    }
    this.completed = 0;
    let at = 0;
    const end = length;
    while (at < end) {
      switch (this.state) {
        case State.Head: {
          const next = this.readHead(chunk, at, end);
          if (next < 0) return this.failed;
          at = next;
          break;
        }
        case State.Length: {
          const take = Math.min(this.remaining, end - at);
          this.body(chunk, at, at + take);
          at += take;
          this.remaining -= take;
          if (this.remaining === 0) this.complete();
          break;
        }
        case State.UntilClose:
          this.body(chunk, at, end);
          at = end;
          break;
        case State.ChunkSize:
        case State.Trailers: {
          const next = this.readLine(chunk, at, end);
          if (next < 0) return this.failed;
          at = next;
          break;
        }
        case State.ChunkData: {
          const take = Math.min(this.remaining, end - at);
          this.body(chunk, at, at + take);
          at += take;
          this.remaining -= take;
          if (this.remaining === 0) {
            this.state = State.ChunkDataEnd;
            this.remaining = 2;
          }
          break;
        }
        case State.ChunkDataEnd: {
          // the CRLF after a chunk's data
          const byte = chunk[at]!;
          if ((this.remaining === 2 && byte !== CR) || (this.remaining === 1 && byte !== LF))
            return this.fail('chunk data not followed by CRLF');
          at++;
          this.headBytes++;
          if (--this.remaining === 0) this.state = State.ChunkSize;
          break;
        }
      }
    }
    // the read held one whole answer and nothing else: the same bytes again will be that answer again
    if (memo && this.completed === 1 && this.state === State.Head && this.pending === undefined) memo.remember(length);
    return undefined;
  }

  /** The connection ended: an answer framed by the close is complete; any other answer cut short is an error. */
  end(): string | undefined {
    if (this.failed) return this.failed;
    if (this.state === State.UntilClose) {
      this.complete();
      return undefined;
    }
    if (this.midAnswer) return this.fail('the connection closed in the middle of an answer');
    return undefined;
  }

  private fail(message: string): string {
    this.failed = `malformed answer: ${message}`;
    return this.failed;
  }

  private body(chunk: Buffer, start: number, end: number): void {
    if (end > start) this.matcher.take(chunk, start, end);
    this.bodyBytes += end - start;
  }

  private complete(): void {
    answer.status = this.status;
    answer.bytes = this.headBytes + this.bodyBytes;
    answer.bodyBytes = this.bodyBytes;
    answer.bodyMatches = this.matcher.finish(this.bodyBytes);
    answer.closes = this.closes;
    this.state = State.Head;
    if (++this.completed === 1) this.memo?.framed(answer);
    this.sink.parsedAnswer(answer);
  }

  /** Reads a head from `at`; returns where its end leaves the chunk, or -1 on an error. */
  private readHead(chunk: Buffer, at: number, end: number): number {
    const pendingLength = this.pending?.length ?? 0;
    const source = this.pending ? Buffer.concat([this.pending, chunk.subarray(at, end)]) : chunk;
    const from = this.pending ? 0 : at;
    const stop = this.pending ? source.length : end;
    const bodyStart = this.parseHead(source, from, stop);
    if (bodyStart < 0) return -1;
    if (bodyStart === 0) {
      if (stop - from > MAX_HEAD_BYTES) return (this.fail(`no end of head within ${MAX_HEAD_BYTES} bytes`), -1);
      // copied: the read buffer is reused by the next read
      this.pending = Buffer.from(source.subarray(from, stop));
      return end;
    }
    this.pending = undefined;
    const next = at + (bodyStart - from) - pendingLength;
    // an interim answer (100 Continue): the real one follows
    if (this.framing === Framing.Interim) return next;
    this.headBytes = bodyStart - from;
    this.bodyBytes = 0;
    this.matcher.begin();
    if (this.framing === Framing.NoBody) this.complete();
    return next;
  }

  /**
   * Status, framing and connection from a head, in one pass over its bytes (no string made, no call into C++ per
   * line): where its body starts, 0 when the head's end has not arrived yet, -1 when it is not HTTP.
   */
  private parseHead(head: Buffer, from: number, stop: number): number {
    let status = -1;
    let http10 = false;
    let contentLength = -1;
    let chunked = false;
    let keepAlive = false;
    let closes = false;
    let line = from;
    for (let i = from; i < stop; i++) {
      if (head[i] !== LF) continue;
      const valueEnd = i > line && head[i - 1] === CR ? i - 1 : i;
      if (status < 0) {
        if (!isStatusLine(head, line, valueEnd))
          return (
            this.fail(`not an HTTP/1 status line: ${JSON.stringify(head.toString('latin1', line, Math.min(valueEnd, line + 40)))}`),
            -1
          );
        http10 = head[line + 7] === 48;
        status = (head[line + 9]! - 48) * 100 + (head[line + 10]! - 48) * 10 + (head[line + 11]! - 48);
      } else if (valueEnd === line) {
        this.status = status;
        this.closes = closes || (http10 && !keepAlive);
        this.framing = this.framingOf(contentLength, chunked);
        return i + 1;
      } else {
        // only names starting c or t matter: one byte read tells most lines apart (content-type from content-length too)
        const first = lower(head[line]!);
        if (first === 99 /* c */) {
          const fourth = lower(head[line + 3]!);
          if (fourth === 116 /* t */ && lower(head[line + 8]!) === 108 /* l */ && nameIs(head, line, valueEnd, 'content-length:')) {
            contentLength = digitsBetween(head, line + 15, valueEnd);
            if (contentLength < 0) return (this.fail(`Content-Length "${head.toString('latin1', line + 15, valueEnd).trim()}"`), -1);
          } else if (fourth === 110 /* n */ && nameIs(head, line, valueEnd, 'connection:')) {
            const intent = connectionIntent(head, line + 11, valueEnd);
            if (intent & CLOSE) closes = true;
            if (intent & KEEP_ALIVE) keepAlive = true;
          }
        } else if (first === 116 /* t */ && nameIs(head, line, valueEnd, 'transfer-encoding:')) {
          chunked = endsWith(head, line + 18, valueEnd, 'chunked');
        }
      }
      line = i + 1;
    }
    return 0;
  }

  /** How the answer whose head was just read is framed, its state set to read it. */
  private framingOf(contentLength: number, chunked: boolean): Framing {
    this.state = State.Head;
    if (this.status < 200) return Framing.Interim;
    if (this.headOnly || this.status === 204 || this.status === 304) return Framing.NoBody;
    if (chunked) this.state = State.ChunkSize;
    else if (contentLength === 0) return Framing.NoBody;
    else if (contentLength > 0) {
      this.remaining = contentLength;
      this.state = State.Length;
    } else this.state = State.UntilClose;
    return Framing.Body;
  }

  /** Reads a chunk-size line or a trailer line from `at`; returns where it leaves the chunk, or -1 on an error. */
  private readLine(chunk: Buffer, at: number, end: number): number {
    let source = chunk;
    let from = at;
    if (this.pending) {
      source = Buffer.concat([this.pending, chunk.subarray(at, end)]);
      from = 0;
    }
    const lf = source.indexOf(LF, from);
    const stop = this.pending ? source.length : end;
    if (lf < 0 || lf >= stop) {
      if (stop - from > MAX_CHUNK_LINE) return (this.fail('a chunk-size line without an end'), -1);
      this.pending = Buffer.from(source.subarray(from, stop));
      return end;
    }
    const lineBytes = lf + 1 - from;
    const next = at + lineBytes - (this.pending?.length ?? 0);
    this.pending = undefined;
    this.headBytes += lineBytes;
    const text = source.toString('latin1', from, lf).replace(/\r$/, '');
    if (this.state === State.Trailers) {
      if (text === '') this.complete();
      return next;
    }
    const size = text.split(';')[0]!.trim();
    if (!/^[0-9a-fA-F]+$/.test(size)) return (this.fail(`chunk size "${text.slice(0, 40)}"`), -1);
    this.remaining = parseInt(size, 16);
    this.state = this.remaining === 0 ? State.Trailers : State.ChunkData;
    return next;
  }
}
