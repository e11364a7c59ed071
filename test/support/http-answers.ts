// Answers as real and broken HTTP/1.1 servers send them, byte for byte, each with what a load generator must make of
// it: the answer it counts (status, body, whether the connection closes after it) or the failure it names. Both of
// wire's framers are held to them at every split of their bytes (test/engines/framing.test.ts), the conformance
// server sends them to every engine (test/engines/conformance.test.ts), and they seed the framer's fuzzing
// (packages/engines/native/fuzz/corpus/).

/** What one answer must be framed to, or the failure that ends the connection there. */
export type Framed = { status: number; bodyBytes: number; bodyOk?: boolean; closes?: boolean } | { error: string };

export interface AnswerCase {
  readonly name: string;
  /** What the server sends, answer by answer: each answer's bytes and what it is framed to. */
  readonly answers: ReadonlyArray<{ readonly bytes: string; readonly framed: Framed }>;
  /** The server closes the connection after its last byte (an answer framed by the close ends there). */
  readonly thenCloses?: boolean;
  /** The request was a HEAD: answers have no body whatever their heads say. */
  readonly headOnly?: boolean;
}

/** The body every answer is expected to carry. */
export const EXPECTED_BODY = 'Hello World';

const ok = (status = 200, closes = false): Framed => ({ status, bodyBytes: 11, closes });
const hello = (head: string, framed: Framed = ok()) => ({ bytes: `${head}\r\n\r\nHello World`, framed });
const broken = (bytes: string, error: string) => ({ bytes, framed: { error } });
const chunked = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n';

export const answerCases: readonly AnswerCase[] = [
  { name: 'content-length', answers: [hello('HTTP/1.1 200 OK\r\nContent-Length: 11')] },
  {
    name: 'pipelined answers, one after another',
    answers: [hello('HTTP/1.1 200 OK\r\nContent-Length: 11'), hello('HTTP/1.1 200 OK\r\nContent-Length: 11\r\nX-Second: 2')],
  },
  { name: 'bare LF line ends', answers: [{ bytes: 'HTTP/1.1 200 OK\nContent-Length: 11\n\nHello World', framed: ok() }] },
  { name: 'a status line without a reason phrase', answers: [hello('HTTP/1.1 200\r\nContent-Length: 11')] },
  {
    name: 'a wrong body',
    answers: [{ bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nHello Wurld', framed: { status: 200, bodyBytes: 11, bodyOk: false } }],
  },
  {
    name: 'a body longer than expected',
    answers: [
      { bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\nHello World!', framed: { status: 200, bodyBytes: 12, bodyOk: false } },
    ],
  },
  {
    name: 'chunked, with extensions, leading zeros, hex in both cases, and trailers',
    answers: [
      { bytes: `${chunked}0006;name=value\r\nHello \r\n5 ; x\r\nWorld\r\n0\r\nX-Trailer: 1\r\n\r\n`, framed: ok() },
      { bytes: `${chunked}b\r\nHello World\r\n0\r\n\r\n`, framed: ok() },
      { bytes: `${chunked}B\r\nHello World\r\n0000\r\n\r\n`, framed: ok() },
    ],
  },
  {
    name: 'Transfer-Encoding: gzip, chunked (chunked last)',
    answers: [{ bytes: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\nB\r\nHello World\r\n0\r\n\r\n', framed: ok() }],
  },
  {
    name: 'Transfer-Encoding in two headers, chunked last',
    answers: [
      {
        bytes: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: Chunked\r\n\r\nB\r\nHello World\r\n0\r\n\r\n',
        framed: ok(),
      },
    ],
  },
  {
    name: 'Transfer-Encoding: chunked, gzip (not last: the body ends with the connection)',
    answers: [
      {
        bytes: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\nHello World',
        framed: { status: 200, bodyBytes: 11, closes: true },
      },
    ],
    thenCloses: true,
  },
  {
    name: 'Content-Length: 0',
    answers: [{ bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n', framed: { status: 200, bodyBytes: 0, bodyOk: false } }],
  },
  { name: 'Content-Length said twice, the same', answers: [hello('HTTP/1.1 200 OK\r\nContent-Length: 11\r\nContent-Length: 11')] },
  { name: 'Content-Length as a list of the same length', answers: [hello('HTTP/1.1 200 OK\r\nContent-Length: 11, 11')] },
  {
    name: 'Content-Length headers that differ',
    answers: [
      broken('HTTP/1.1 200 OK\r\nContent-Length: 11\r\nContent-Length: 12\r\n\r\nHello World', 'Content-Length headers that differ'),
    ],
  },
  {
    name: 'Content-Length, a list of lengths that differ',
    answers: [broken('HTTP/1.1 200 OK\r\nContent-Length: 11, 12\r\n\r\n', 'Content-Length "11, 12"')],
  },
  { name: 'Content-Length not a number', answers: [broken('HTTP/1.1 200 OK\r\nContent-Length: 1l\r\n\r\n', 'Content-Length "1l"')] },
  {
    name: 'Content-Length over 2^53 - 1',
    answers: [broken('HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n', 'Content-Length over 2^53 - 1')],
  },
  {
    name: 'a huge Content-Length, cut short by the close',
    answers: [
      broken('HTTP/1.1 200 OK\r\nContent-Length: 9007199254740991\r\n\r\nHello World', 'the connection closed in the middle of an answer'),
    ],
    thenCloses: true,
  },
  {
    name: 'both Transfer-Encoding and Content-Length',
    answers: [
      broken('HTTP/1.1 200 OK\r\nContent-Length: 11\r\nTransfer-Encoding: chunked\r\n\r\n', 'both Transfer-Encoding and Content-Length'),
    ],
  },
  { name: '100 Continue before the answer', answers: [hello('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 11')] },
  {
    name: '103 Early Hints (with Link) before the answer',
    answers: [hello('HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 11')],
  },
  {
    name: 'several interim answers in a row',
    answers: [
      hello(
        'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.js>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 11',
      ),
    ],
  },
  {
    name: '101 to a request that asked for no upgrade',
    answers: [
      broken(
        'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n',
        '101 Switching Protocols, to a request that asked for no upgrade',
      ),
    ],
  },
  {
    name: 'HTTP/1.0 ended by the close',
    answers: [{ bytes: 'HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nHello World', framed: ok(200, true) }],
    thenCloses: true,
  },
  {
    name: 'HTTP/1.0 kept alive',
    answers: [
      hello('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 11'),
      hello('HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 11'),
    ],
  },
  { name: 'Connection: close', answers: [hello('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 11', ok(200, true))] },
  {
    name: 'Connection, a list with close',
    answers: [hello('HTTP/1.1 200 OK\r\nConnection: Upgrade, close\r\nContent-Length: 11', ok(200, true))],
  },
  {
    name: 'Connection naming a header that holds "close"',
    answers: [hello('HTTP/1.1 200 OK\r\nConnection: x-closed\r\nContent-Length: 11')],
  },
  {
    name: '204 and 304 have no body, whatever their length says',
    answers: [
      { bytes: 'HTTP/1.1 204 No Content\r\n\r\n', framed: { status: 204, bodyBytes: 0, bodyOk: false } },
      { bytes: 'HTTP/1.1 304 Not Modified\r\nContent-Length: 11\r\n\r\n', framed: { status: 304, bodyBytes: 0, bodyOk: false } },
    ],
  },
  {
    name: 'answers to HEAD have no body',
    headOnly: true,
    answers: [{ bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n', framed: { status: 200, bodyBytes: 0, bodyOk: false } }],
  },
  {
    name: 'a 500 with a body',
    answers: [
      {
        bytes: 'HTTP/1.1 500 Internal Server Error\r\nContent-Length: 5\r\n\r\noops!',
        framed: { status: 500, bodyBytes: 5, bodyOk: false },
      },
    ],
  },
  { name: 'a long header nothing reads', answers: [hello(`HTTP/1.1 200 OK\r\nX-Padding: ${'x'.repeat(8000)}\r\nContent-Length: 11`)] },
  { name: 'a folded header nothing reads', answers: [hello('HTTP/1.1 200 OK\r\nX-Folded: a\r\n b\r\nContent-Length: 11')] },
  {
    name: 'a folded Content-Length',
    answers: [broken('HTTP/1.1 200 OK\r\nContent-Length: 11\r\n 12\r\n\r\n', 'a folded Content-Length header')],
  },
  {
    name: 'a Connection header over 512 bytes',
    answers: [broken(`HTTP/1.1 200 OK\r\nConnection: ${'a,'.repeat(300)}close\r\n\r\n`, 'a Connection header over 512 bytes')],
  },
  {
    name: 'a head over 64 KiB',
    answers: [
      broken(`HTTP/1.1 200 OK\r\nX-Padding: ${'x'.repeat(70_000)}\r\nContent-Length: 11\r\n\r\n`, 'no end of head within 65536 bytes'),
    ],
  },
  { name: 'a long reason phrase', answers: [hello(`HTTP/1.1 200 ${'Fine '.repeat(40)}\r\nContent-Length: 11`)] },
  { name: 'not HTTP', answers: [broken('XYZZY\r\n\r\n', 'not an HTTP/1 status line: "XYZZY"')] },
  {
    name: 'a long line that is not HTTP, quoted to 40 bytes',
    answers: [
      broken(
        `SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\x00${'x'.repeat(60)}\r\n`,
        'not an HTTP/1 status line: "SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3.x"',
      ),
    ],
  },
  { name: 'HTTP/2 preface-like status line', answers: [broken('HTTP/2 200\r\n\r\n', 'not an HTTP/1 status line: "HTTP/2 200"')] },
  { name: 'a four-digit status', answers: [broken('HTTP/1.1 2000 OK\r\n\r\n', 'not an HTTP/1 status line: "HTTP/1.1 2000 OK"')] },
  {
    name: 'a header line without a colon',
    answers: [broken('HTTP/1.1 200 OK\r\nContent-Length 11\r\n\r\n', 'a header name that is not a token')],
  },
  { name: 'a header name then the line end', answers: [broken('HTTP/1.1 200 OK\r\nX-Broken\r\n\r\n', 'a header line without a colon')] },
  {
    name: 'a space before the colon',
    answers: [broken('HTTP/1.1 200 OK\r\nContent-Length : 11\r\n\r\n', 'a header name that is not a token')],
  },
  {
    name: 'a CR alone in the head',
    answers: [broken('HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\rX\r\n\r\n', 'a CR not followed by LF in the head')],
  },
  { name: 'chunk data not followed by CRLF', answers: [broken(`${chunked}5\r\nHelloXX0\r\n\r\n`, 'chunk data not followed by CRLF')] },
  { name: 'a chunk size not in hex', answers: [broken(`${chunked}zz\r\nHello\r\n0\r\n\r\n`, 'chunk size not a hexadecimal number')] },
  { name: 'a chunk size over 2^53 - 1', answers: [broken(`${chunked}fffffffffffffffffff\r\n`, 'a chunk size over 2^53 - 1')] },
  {
    name: 'a chunk-size line over 4096 bytes',
    answers: [broken(`${chunked}5;${'e'.repeat(5000)}\r\nHello\r\n0\r\n\r\n`, 'a chunk-size line over 4096 bytes')],
  },
  {
    name: 'the connection closed in the middle of a body',
    answers: [broken('HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nHello', 'the connection closed in the middle of an answer')],
    thenCloses: true,
  },
  {
    name: 'the connection closed after an interim answer',
    answers: [broken('HTTP/1.1 100 Continue\r\n\r\n', 'the connection closed in the middle of an answer')],
    thenCloses: true,
  },
];

/** A case's bytes as the server sends them. */
export const caseBytes = (c: AnswerCase): Buffer => Buffer.from(c.answers.map((a) => a.bytes).join(''), 'latin1');
