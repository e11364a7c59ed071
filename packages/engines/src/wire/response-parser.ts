import type { AnswerMemo, FramedAnswer } from './answer-memo.js';
import type { BodyMatcher } from './body-matcher.js';

/** One answer read off a connection: its status, its bytes on the wire (head and body), its body's, and whether it was the expected one. */
export interface ParsedAnswer {
  readonly status: number;
  /** Every byte of the answer: interim answers (100, 103) before it, head, chunk framing, body, trailers. */
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

/** A head (status line and headers, or an interim answer's) larger than this is taken for a stream that is not HTTP. */
const MAX_HEAD = 65536;
/** The longest value kept of the headers framing reads. */
const MAX_VALUE = 512;
const MAX_CHUNK_LINE = 4096;
/** The largest length a number may give: exact in a double, as in the native core's int64. */
const MAX_LENGTH = Number.MAX_SAFE_INTEGER;
const STATUS_KEPT = 40;

const CR = 13;
const LF = 10;
const SP = 32;
const HT = 9;
const COLON = 58;

// The phases of an answer, as the native core's framer (native/http-framer.c) has them: both cores frame every
// answer the same way, and test/engines/framing-cases.ts holds both to the same cases.
const enum Phase {
  Status,
  Line,
  Name,
  Value,
  Skip,
  HeadLf,
  Body,
  ChunkSize,
  ChunkExt,
  ChunkLf,
  ChunkData,
  DataCr,
  DataLf,
  Trailer,
  TrailerSkip,
  TrailerLf,
  UntilClose,
}

const enum Header {
  Other,
  Length,
  Encoding,
  Connection,
}
const HEADER_NAMES = ['', 'content-length', 'transfer-encoding', 'connection'] as const;
const HEADER_TITLES = ['', 'Content-Length', 'Transfer-Encoding', 'Connection'] as const;

// RFC 9110's token characters, the only ones a header's name may hold
const TOKEN = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") TOKEN[c.charCodeAt(0)] = 1;

const isSpace = (c: number) => c === SP || c === HT;
const lower = (c: number) => c | 0x20;

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** The elements of a list value (split at commas), spaces around each dropped. */
function elements(value: string): string[] {
  return value.split(',').map((element) => element.replace(/^[ \t]+|[ \t]+$/g, ''));
}

/**
 * An incremental HTTP/1.1 response parser for a load generator: answers framed by Content-Length, by chunked transfer
 * coding (the last of Transfer-Encoding's codings) or by the connection's end, one after another on one connection
 * (pipelining), read from whatever slices the socket hands over. Interim answers (1xx but 101) are skipped, their bytes
 * counted in the answer that follows. It reads only what framing needs from a head (status, Content-Length,
 * Transfer-Encoding, Connection) and checks bodies through a matcher without copying them. Its state is bounded
 * (heads, values, chunk lines); anything it cannot frame is an error, reported once: the caller drops the connection,
 * so a malformed answer never hangs a run.
 */
export class ResponseParser {
  private phase = Phase.Status;
  private failed: string | undefined;
  private headBytes = 0;
  private lineLength = 0;
  private statusLength = 0;
  private readonly statusLine = Buffer.alloc(STATUS_KEPT);
  private lastCr = false;
  private status = 0;
  private http10 = false;
  private header = Header.Other;
  /** The framing headers a name being read may still be (a bit each). */
  private nameMatch = 0;
  private value = '';
  private valueLength = 0;
  private hasLength = false;
  private length = 0;
  private hasEncoding = false;
  private chunkedLast = false;
  private keepAlive = false;
  private close = false;
  private closes = false;
  private digits = false;
  private remaining = 0;
  private answerBytes = 0;
  private answerBody = 0;
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

  /** Whether an answer is under way (part of it, an interim one included, read). */
  get midAnswer(): boolean {
    return this.phase !== Phase.Status || this.headBytes > 0 || this.answerBytes > 0;
  }

  /**
   * Reads the first `length` bytes of `chunk` (valid until the call returns; a read buffer is reused), or all of it;
   * returns an error message when they cannot be HTTP.
   */
  feed(chunk: Buffer, length = chunk.length): string | undefined {
    if (this.failed) return this.failed;
    // a read of the run's read buffer that starts between two answers may be the remembered answer again
    const memo = chunk === this.memo?.source && !this.midAnswer ? this.memo : undefined;
    if (memo?.recall(length, answer)) {
      this.sink.parsedAnswer(answer);
      return undefined;
    }
    this.completed = 0;
    let at = 0;
    while (at < length) {
      at = this.phase <= Phase.HeadLf ? this.head(chunk, at, length) : this.body(chunk, at, length);
      if (at < 0) return this.failed;
    }
    // the read held one whole answer and nothing else: the same bytes again will be that answer again
    if (memo && this.completed === 1 && !this.midAnswer) memo.remember(length);
    return undefined;
  }

  /** The connection ended: an answer framed by the close is complete; any other answer cut short is an error. */
  end(): string | undefined {
    if (this.failed) return this.failed;
    if (this.phase === Phase.UntilClose) this.answered();
    else if (this.midAnswer) return this.fail('the connection closed in the middle of an answer');
    return undefined;
  }

  private fail(message: string): string {
    this.failed = `malformed answer: ${message}`;
    return this.failed;
  }

  /** The next answer's head starts. */
  private nextHead(): void {
    this.phase = Phase.Status;
    this.headBytes = 0;
    this.lineLength = 0;
    this.statusLength = 0;
    this.lastCr = false;
    this.header = Header.Other;
    this.hasLength = this.hasEncoding = this.chunkedLast = this.keepAlive = this.close = false;
    this.length = 0;
  }

  private answered(): void {
    answer.status = this.status;
    answer.bytes = this.answerBytes;
    answer.bodyBytes = this.answerBody;
    answer.bodyMatches = this.matcher.finish(this.answerBody);
    answer.closes = this.closes;
    this.answerBytes = this.answerBody = 0;
    this.nextHead();
    if (++this.completed === 1) this.memo?.framed(answer);
    this.sink.parsedAnswer(answer);
  }

  private takeBody(chunk: Buffer, start: number, end: number): void {
    if (end > start) this.matcher.take(chunk, start, end);
    this.answerBody += end - start;
    this.answerBytes += end - start;
  }

  /** Head bytes from `at`: where it leaves the chunk (at the head's end, or the chunk's), or -1 on an error. */
  private head(chunk: Buffer, at: number, end: number): number {
    while (at < end && this.phase <= Phase.HeadLf) {
      if (this.phase === Phase.Skip) {
        // the rest of a line nothing reads, to its LF
        const lf = chunk.indexOf(LF, at);
        const take = lf >= 0 && lf < end ? lf + 1 - at : end - at;
        if (this.headBytes + take > MAX_HEAD) return this.error(`no end of head within ${MAX_HEAD} bytes`);
        this.headBytes += take;
        this.answerBytes += take;
        at += take;
        if (lf >= 0 && lf < end) this.phase = Phase.Line;
        continue;
      }
      const c = chunk[at++]!;
      if (++this.headBytes > MAX_HEAD) return this.error(`no end of head within ${MAX_HEAD} bytes`);
      this.answerBytes++;
      switch (this.phase) {
        case Phase.Status:
          if (c === LF) {
            // the CR before LF is no part of the line
            if (this.lastCr) this.statusLength--;
            if (!this.statusLineOk()) return this.error(`not an HTTP/1 status line: "${this.quotedStatusLine()}"`);
            this.phase = Phase.Line;
          } else {
            if (this.statusLength < STATUS_KEPT) this.statusLine[this.statusLength] = c;
            this.statusLength++;
            this.lastCr = c === CR;
          }
          break;
        case Phase.Line:
          if (c === CR) this.phase = Phase.HeadLf;
          else if (c === LF) {
            if (this.headEnd() < 0) return -1;
          } else if (isSpace(c)) {
            // obs-fold: a line that continues the last header's value
            if (this.header !== Header.Other) return this.error(`a folded ${HEADER_TITLES[this.header]} header`);
            this.phase = Phase.Skip;
          } else if (TOKEN[c]) {
            this.phase = Phase.Name;
            this.lineLength = 1;
            this.nameMatch = 0;
            for (let h = Header.Length; h <= Header.Connection; h++)
              if (lower(c) === HEADER_NAMES[h].charCodeAt(0)) this.nameMatch |= 1 << h;
          } else return this.error(c === COLON ? 'a header without a name' : 'a header name that is not a token');
          break;
        case Phase.Name:
          if (c === COLON) {
            this.header = this.headerNamed();
            this.phase = this.header === Header.Other ? Phase.Skip : Phase.Value;
            this.value = '';
            this.valueLength = 0;
          } else if (TOKEN[c]) {
            for (let h = Header.Length; h <= Header.Connection; h++) {
              const name = HEADER_NAMES[h];
              if (this.nameMatch & (1 << h) && (this.lineLength >= name.length || lower(c) !== name.charCodeAt(this.lineLength)))
                this.nameMatch &= ~(1 << h);
            }
            this.lineLength++;
          } else return this.error(c === LF || c === CR ? 'a header line without a colon' : 'a header name that is not a token');
          break;
        case Phase.Value: {
          // the value taken at once, to its LF where it lies (this byte included): leading spaces dropped, its CR later
          at--;
          this.headBytes--;
          this.answerBytes--;
          let from = at;
          if (this.valueLength === 0) while (from < end && isSpace(chunk[from]!)) from++;
          const lf = chunk.indexOf(LF, from);
          const stop = lf >= 0 && lf < end ? lf : end;
          const through = stop < end ? stop + 1 : end;
          // the head's bound counts every byte to the LF, spaces included
          if (this.headBytes + (through - at) > MAX_HEAD) return this.error(`no end of head within ${MAX_HEAD} bytes`);
          if (this.valueLength + (stop - from) <= MAX_VALUE) this.value += chunk.toString('latin1', from, stop);
          this.valueLength += stop - from;
          this.headBytes += through - at;
          this.answerBytes += through - at;
          at = through;
          if (stop < end) {
            if (this.headerValue() < 0) return -1;
            this.phase = Phase.Line;
          }
          break;
        }
        case Phase.HeadLf:
          if (c !== LF) return this.error('a CR not followed by LF in the head');
          if (this.headEnd() < 0) return -1;
          break;
      }
    }
    return at;
  }

  private error(message: string): number {
    this.fail(message);
    return -1;
  }

  /** The status line, ended by LF: "HTTP/1.x SSS" and a reason phrase after a space, or nothing. */
  private statusLineOk(): boolean {
    const s = this.statusLine;
    const n = this.statusLength;
    const digit = (c: number | undefined) => c !== undefined && c >= 48 && c <= 57;
    if (n < 12 || s.toString('latin1', 0, 7) !== 'HTTP/1.' || !digit(s[7]) || s[8] !== SP) return false;
    if (s[9]! < 49 || s[9]! > 57 || !digit(s[10]) || !digit(s[11])) return false;
    if (n > 12 && s[12] !== SP) return false;
    this.status = (s[9]! - 48) * 100 + (s[10]! - 48) * 10 + (s[11]! - 48);
    this.http10 = s[7] === 48;
    return true;
  }

  /** The status line's first bytes, those that are not printable shown as '.'. */
  private quotedStatusLine(): string {
    let text = '';
    for (let i = 0; i < Math.min(this.statusLength, STATUS_KEPT); i++) {
      const c = this.statusLine[i]!;
      text += c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '.';
    }
    return text;
  }

  /** The framing header whose name ends here, if it is one. */
  private headerNamed(): Header {
    for (let h = Header.Length; h <= Header.Connection; h++)
      if (this.lineLength === HEADER_NAMES[h].length && this.nameMatch & (1 << h)) return h;
    return Header.Other;
  }

  /** A framing header's value, whole: 0, or -1 with the error set. */
  private headerValue(): number {
    const title = HEADER_TITLES[this.header];
    if (this.valueLength > MAX_VALUE) return this.error(`a ${title} header over ${MAX_VALUE} bytes`);
    const value = this.value.endsWith('\r') ? this.value.slice(0, -1) : this.value;
    if (this.header === Header.Length) {
      // a list of one length, said once or more (RFC 9110 8.6), at most 2^53 - 1
      let length = -1;
      for (const element of elements(value)) {
        let n = element === '' ? -1 : 0;
        for (let i = 0; i < element.length && n >= 0; i++) {
          const d = element.charCodeAt(i) - 48;
          if (d < 0 || d > 9) n = -1;
          else if (n > Math.floor((MAX_LENGTH - d) / 10)) n = -2;
          else n = n * 10 + d;
        }
        if (n === -2) return this.error('Content-Length over 2^53 - 1');
        if (n < 0 || (length >= 0 && n !== length)) return this.error(`Content-Length "${value.slice(0, 40)}"`);
        length = n;
      }
      if (this.hasLength && this.length !== length) return this.error('Content-Length headers that differ');
      this.hasLength = true;
      this.length = length;
      return 0;
    }
    if (this.header === Header.Encoding) {
      // a list of codings: chunked frames the body when it is the last one (RFC 9112 6.3)
      this.hasEncoding = true;
      for (const element of elements(value)) if (element !== '') this.chunkedLast = /^chunked(?:[; \t]|$)/i.test(element);
      return 0;
    }
    for (const element of elements(value)) {
      const token = element.toLowerCase();
      if (token === 'close') this.close = true;
      if (token === 'keep-alive') this.keepAlive = true;
    }
    return 0;
  }

  /** The head's end: how its answer is framed (an interim one is skipped); 0, or -1 with the error set. */
  private headEnd(): number {
    if (this.status >= 100 && this.status < 200) {
      if (this.status === 101) return this.error('101 Switching Protocols, to a request that asked for no upgrade');
      // an interim answer (100 Continue, 103 Early Hints): its bytes count in the final answer's, which follows
      this.nextHead();
      return 0;
    }
    this.closes = this.close || (this.http10 && !this.keepAlive);
    this.matcher.begin();
    if (this.headOnly || this.status === 204 || this.status === 304) {
      this.answered();
      return 0;
    }
    if (this.hasEncoding && this.hasLength) return this.error('both Transfer-Encoding and Content-Length');
    if (this.hasEncoding && this.chunkedLast) {
      this.phase = Phase.ChunkSize;
      this.lineLength = 0;
      this.digits = false;
      this.remaining = 0;
    } else if (this.hasLength) {
      if (this.length === 0) this.answered();
      else {
        this.phase = Phase.Body;
        this.remaining = this.length;
      }
    } else {
      // no length, or codings that do not end in chunked: the body ends with the connection
      this.phase = Phase.UntilClose;
      this.closes = true;
    }
    return 0;
  }

  /** Body bytes (and chunk framing, trailers) from `at`: where it leaves the chunk, or -1 on an error. */
  private body(chunk: Buffer, at: number, end: number): number {
    switch (this.phase) {
      case Phase.Body:
      case Phase.ChunkData: {
        const take = Math.min(this.remaining, end - at);
        this.takeBody(chunk, at, at + take);
        this.remaining -= take;
        if (this.remaining === 0) {
          if (this.phase === Phase.Body) this.answered();
          else this.phase = Phase.DataCr;
        }
        return at + take;
      }
      case Phase.UntilClose:
        this.takeBody(chunk, at, end);
        return end;
      case Phase.ChunkSize: {
        const c = chunk[at++]!;
        this.answerBytes++;
        if (++this.lineLength > MAX_CHUNK_LINE) return this.error(`a chunk-size line over ${MAX_CHUNK_LINE} bytes`);
        const digit = hexDigit(c);
        if (digit >= 0) {
          // leading zeros are no digits of the size
          if (this.remaining > 0 || digit > 0) {
            if (this.remaining > Math.floor((MAX_LENGTH - digit) / 16)) return this.error('a chunk size over 2^53 - 1');
            this.remaining = this.remaining * 16 + digit;
          }
          this.digits = true;
          return at;
        }
        if (!this.digits) return this.error('chunk size not a hexadecimal number');
        if (c === 59 /* ; */ || isSpace(c)) this.phase = Phase.ChunkExt;
        else if (c === CR) this.phase = Phase.ChunkLf;
        else if (c === LF) this.chunkSizeRead();
        else return this.error('chunk size not a hexadecimal number');
        return at;
      }
      case Phase.ChunkExt: {
        // extensions (or spaces before them), to the line's LF
        const lf = chunk.indexOf(LF, at);
        const take = lf >= 0 && lf < end ? lf + 1 - at : end - at;
        if (this.lineLength + take > MAX_CHUNK_LINE) return this.error(`a chunk-size line over ${MAX_CHUNK_LINE} bytes`);
        this.lineLength += take;
        this.answerBytes += take;
        if (lf >= 0 && lf < end) this.chunkSizeRead();
        return at + take;
      }
      case Phase.ChunkLf:
        this.answerBytes++;
        if (++this.lineLength > MAX_CHUNK_LINE) return this.error(`a chunk-size line over ${MAX_CHUNK_LINE} bytes`);
        if (chunk[at] !== LF) return this.error('a chunk-size line not ended by CRLF');
        this.chunkSizeRead();
        return at + 1;
      case Phase.DataCr:
      case Phase.DataLf: {
        this.answerBytes++;
        if (chunk[at] !== (this.phase === Phase.DataCr ? CR : LF)) return this.error('chunk data not followed by CRLF');
        if (this.phase === Phase.DataLf) {
          this.phase = Phase.ChunkSize;
          this.digits = false;
        } else this.phase = Phase.DataLf;
        return at + 1;
      }
      case Phase.Trailer:
      case Phase.TrailerLf: {
        const c = chunk[at++]!;
        this.answerBytes++;
        if (++this.headBytes > MAX_HEAD) return this.error(`no end of trailers within ${MAX_HEAD} bytes`);
        if (this.phase === Phase.TrailerLf) {
          if (c !== LF) return this.error('a CR not followed by LF in the trailers');
          this.answered();
        } else if (c === CR) this.phase = Phase.TrailerLf;
        else if (c === LF) this.answered();
        else this.phase = Phase.TrailerSkip;
        return at;
      }
      case Phase.TrailerSkip: {
        const lf = chunk.indexOf(LF, at);
        const take = lf >= 0 && lf < end ? lf + 1 - at : end - at;
        if (this.headBytes + take > MAX_HEAD) return this.error(`no end of trailers within ${MAX_HEAD} bytes`);
        this.headBytes += take;
        this.answerBytes += take;
        if (lf >= 0 && lf < end) this.phase = Phase.Trailer;
        return at + take;
      }
      default:
        return this.error('the parser lost its place');
    }
  }

  private chunkSizeRead(): void {
    this.lineLength = 0;
    this.headBytes = 0;
    this.phase = this.remaining === 0 ? Phase.Trailer : Phase.ChunkData;
  }
}
