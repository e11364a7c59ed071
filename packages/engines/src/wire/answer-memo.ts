/** What framing an answer found: the fields of a ParsedAnswer. */
export interface FramedAnswer {
  status: number;
  bytes: number;
  bodyBytes: number;
  bodyMatches: boolean;
  closes: boolean;
}

function copy(from: FramedAnswer, to: FramedAnswer): void {
  to.status = from.status;
  to.bytes = from.bytes;
  to.bodyBytes = from.bodyBytes;
  to.bodyMatches = from.bodyMatches;
  to.closes = from.closes;
}

/** Answers longer than this are framed each time: comparing them word by word would cost about what framing does. */
const MAX_REMEMBERED_BYTES = 2048;

/**
 * The last answer a run's parsers framed whole from one read, its bytes and what framing found. A server under load
 * sends the same bytes again and again (its Date header changes once a second), so a read that holds exactly those
 * bytes is that answer again: compared word by word, it need not be framed and checked again (scripts/measure/parse-cost.mjs:
 * fastify's Hello World recalled in 64-83 ns an answer, framed in 438-465 ns; nginx's 311-byte page 169-176 ns and
 * 635-664 ns). Only an answer whose body was the expected one and that keeps its connection open is remembered; one
 * memo serves the connections of one run (their matcher and method are the run's).
 */
export class AnswerMemo {
  private readonly sourceWords: Int32Array;
  private readonly words = new Int32Array(MAX_REMEMBERED_BYTES / 4);
  private readonly bytes = new Uint8Array(this.words.buffer);
  /** The remembered answer's length; -1 before one is (an empty read is never an answer). */
  private length = -1;
  private readonly remembered: FramedAnswer = { status: 0, bytes: 0, bodyBytes: 0, bodyMatches: true, closes: false };
  private readonly candidate: FramedAnswer = { status: 0, bytes: 0, bodyBytes: 0, bodyMatches: true, closes: false };

  /** `source`: the read buffer every read of the run lands in, from its start; its offset a multiple of 4. */
  constructor(readonly source: Buffer) {
    if (source.byteOffset % 4 !== 0) throw new Error('an answer memo reads its source by 4-byte words');
    this.sourceWords = new Int32Array(source.buffer, source.byteOffset, source.length >> 2);
  }

  /** Whether the source's first `length` bytes are the remembered answer's; if so, `into` is given what it framed to. */
  recall(length: number, into: FramedAnswer): boolean {
    if (length !== this.length) return false;
    const words = length >> 2;
    const source = this.sourceWords;
    const remembered = this.words;
    for (let i = 0; i < words; i++) if (source[i] !== remembered[i]) return false;
    for (let i = words << 2; i < length; i++) if (this.source[i] !== this.bytes[i]) return false;
    copy(this.remembered, into);
    return true;
  }

  /** The answer just framed, kept aside until the read it came in is known to hold it alone. */
  framed(answer: FramedAnswer): void {
    copy(answer, this.candidate);
  }

  /** The source's first `length` bytes were exactly the answer last framed: remember them with it. */
  remember(length: number): void {
    const candidate = this.candidate;
    if (length > MAX_REMEMBERED_BYTES || !candidate.bodyMatches || candidate.closes) return;
    this.bytes.set(this.source.subarray(0, length));
    this.length = length;
    copy(candidate, this.remembered);
  }
}
