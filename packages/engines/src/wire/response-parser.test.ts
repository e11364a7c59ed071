import { describe, expect, it } from 'vitest';
import type { BodyExpectation } from '@bench/core';
import { AnswerMemo } from './answer-memo.js';
import { bodyMatcher, type BodyMatcher } from './body-matcher.js';
import { ResponseParser, type ParsedAnswer } from './response-parser.js';

const exactBody = (bytes: Buffer): BodyExpectation => ({ kind: 'exact', length: bytes.length, bytes: () => bytes });
const matchingBody = (pattern: string): BodyExpectation => ({ kind: 'matches', pattern });

const hello = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 11\r\nDate: x\r\n\r\nHello World';
const chunked = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nHello\r\n6;ext=1\r\n World\r\n0\r\nX-Trailer: 1\r\n\r\n';

function parse(stream: string, slices: number[] = [], expect = exactBody(Buffer.from('Hello World')), headOnly = false) {
  const answers: ParsedAnswer[] = [];
  // the parser hands over one answer object it reuses: copied as it comes
  const parser = new ResponseParser(bodyMatcher(expect), { parsedAnswer: (a) => answers.push({ ...a }) }, headOnly);
  const bytes = Buffer.from(stream, 'latin1');
  let at = 0;
  let error: string | undefined;
  for (const cut of [...slices, bytes.length]) {
    // each slice in a buffer of its own, overwritten after the call as the socket's read buffer is
    const slice = Buffer.from(bytes.subarray(at, cut));
    error ??= parser.feed(slice);
    slice.fill(0);
    at = cut;
  }
  return { answers, error, end: () => parser.end(), parser };
}

describe('the wire engine’s response parser', () => {
  it('frames Content-Length answers back to back, however the reads cut them', () => {
    const two = hello + hello;
    for (let cut = 1; cut < two.length; cut++) {
      const { answers, error } = parse(two, [cut]);
      expect(error, `cut at ${cut}`).toBeUndefined();
      expect(answers, `cut at ${cut}`).toEqual([
        { status: 200, bytes: hello.length, bodyBytes: 11, bodyMatches: true, closes: false },
        { status: 200, bytes: hello.length, bodyBytes: 11, bodyMatches: true, closes: false },
      ]);
    }
  });

  it('reads chunked bodies (extensions and trailers too) and checks the body across chunks', () => {
    for (let cut = 1; cut < chunked.length; cut++) {
      const { answers, error } = parse(chunked + hello, [cut]);
      expect(error, `cut at ${cut}`).toBeUndefined();
      expect(answers.map((a) => [a.status, a.bodyBytes, a.bodyMatches, a.bytes])).toEqual([
        [200, 11, true, chunked.length],
        [200, 11, true, hello.length],
      ]);
    }
  });

  it('says when a body differs, in its bytes or its length', () => {
    const wrong = parse(hello.replace('World', 'Wurld')).answers[0];
    expect(wrong?.bodyMatches).toBe(false);
    const longer = parse(hello.replace('Content-Length: 11', 'Content-Length: 12') + '!').answers[0];
    expect(longer).toMatchObject({ bodyBytes: 12, bodyMatches: false });
  });

  it('checks a pattern on the whole text, kept across reads', () => {
    const { answers } = parse(hello, [hello.length - 3], matchingBody('^Hello W.rld$'));
    expect(answers[0]?.bodyMatches).toBe(true);
  });

  it('reads a body framed by the end of the connection, and the server’s intent to close', () => {
    const { answers, end } = parse('HTTP/1.0 200 OK\r\n\r\nHello World');
    expect(answers).toEqual([]);
    expect(end()).toBeUndefined();
    expect(answers).toEqual([{ status: 200, bytes: 30, bodyBytes: 11, bodyMatches: true, closes: true }]);
    const closing = parse(hello.replace('Date: x', 'Connection: close')).answers[0];
    expect(closing?.closes).toBe(true);
  });

  it('reads the Connection header as one token or a list, in any case', () => {
    const closes = (value: string) => parse(hello.replace('Date: x', `Connection: ${value}`)).answers[0]?.closes;
    expect([closes('close'), closes(' CLOSE '), closes('Upgrade, close'), closes('keep-alive'), closes('Keep-Alive')]).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    const http10 = (value: string) => parse(`HTTP/1.0 200 OK\r\nContent-Length: 11\r\nConnection: ${value}\r\n\r\nHello World`).answers[0];
    expect([http10('keep-alive')?.closes, http10('Keep-Alive, x')?.closes, http10('x')?.closes]).toEqual([false, false, true]);
  });

  it('compares a short body and a long one byte for byte, wherever the reads cut them', () => {
    const long = Buffer.from('x'.repeat(100) + 'y'.repeat(211));
    const answer = (body: Buffer) => `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body.toString('latin1')}`;
    const wrongAt = (i: number) => Buffer.from(long.toString('latin1').slice(0, i) + 'z' + long.toString('latin1').slice(i + 1));
    for (const cut of [40, 70, 120, 300]) {
      expect(parse(answer(long), [cut], exactBody(long)).answers[0]?.bodyMatches, `cut at ${cut}`).toBe(true);
      for (const i of [0, 5, 150, 310]) expect(parse(answer(wrongAt(i)), [cut], exactBody(long)).answers[0]?.bodyMatches).toBe(false);
    }
  });

  it('takes no body after a HEAD, a 204 or a 304, and skips an interim 100', () => {
    expect(parse(hello.slice(0, hello.indexOf('\r\n\r\n') + 4), [], exactBody(Buffer.alloc(0)), true).answers).toHaveLength(1);
    const noContent = parse('HTTP/1.1 204 No Content\r\nContent-Length: 11\r\n\r\n' + hello);
    expect(noContent.answers.map((a) => a.status)).toEqual([204, 200]);
    expect(parse('HTTP/1.1 100 Continue\r\n\r\n' + hello).answers.map((a) => a.status)).toEqual([200]);
  });

  it('fails, once and in words, on what is not HTTP, and never waits for more of it', () => {
    expect(parse('SSH-2.0-OpenSSH\r\n\r\n').error).toMatch(/^malformed answer: not an HTTP\/1 status line: "SSH-2.0/);
    expect(parse('HTTP/1.1 200 OK\r\nContent-Length: eleven\r\n\r\n').error).toMatch(/Content-Length "eleven"/);
    expect(parse('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n').error).toMatch(/chunk size not a hexadecimal number/);
    expect(parse('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXY').error).toMatch(/chunk data not followed by CRLF/);
    expect(parse('x'.repeat(70 * 1024)).error).toMatch(/no end of head within/);
    const cut = parse(hello.slice(0, 40));
    expect(cut.error).toBeUndefined();
    expect(cut.end()).toMatch(/closed in the middle of an answer/);
  });

  describe('with a memo of the run’s last answer', () => {
    // reads land in one shared buffer, from its start, as the socket's reads do; the matcher counts the bodies it checks
    function reader(expect = exactBody(Buffer.from('Hello World'))) {
      const source = Buffer.from(new ArrayBuffer(4096));
      const memo = new AnswerMemo(source);
      const answers: ParsedAnswer[] = [];
      const inner = bodyMatcher(expect);
      const checked = { bodies: 0 };
      const matcher: BodyMatcher = { ...inner, finish: (length) => (checked.bodies++, inner.finish(length)) };
      const parser = new ResponseParser(matcher, { parsedAnswer: (a) => answers.push({ ...a }) }, false, memo);
      const read = (text: string) => {
        const length = source.write(text, 'latin1');
        const error = parser.feed(source, length);
        source.fill(0);
        return error;
      };
      return { read, answers, checked, parser };
    }
    const answer = (over: Partial<ParsedAnswer> = {}) => ({
      status: 200,
      bytes: hello.length,
      bodyBytes: 11,
      bodyMatches: true,
      closes: false,
      ...over,
    });

    it('recalls an answer read whole when the same bytes come again, without framing or checking it again', () => {
      const { read, answers, checked } = reader();
      // nothing remembered yet: an empty read is no answer
      read('');
      expect(answers).toEqual([]);
      for (let i = 0; i < 5; i++) expect(read(hello)).toBeUndefined();
      expect(answers).toEqual(Array.from({ length: 5 }, () => answer()));
      expect(checked.bodies).toBe(1);
    });

    it('frames any other bytes: a body that differs by one byte is checked, and found wrong, every time', () => {
      const { read, answers, checked, parser } = reader();
      read(hello);
      const wrong = hello.replace('World', 'Wurld');
      read(wrong);
      read(wrong);
      expect(answers.map((a) => a.bodyMatches)).toEqual([true, false, false]);
      expect(checked.bodies).toBe(3);
      expect(parser.midAnswer).toBe(false);
    });

    it('remembers no read that holds more or less than one answer, nor one that closes the connection', () => {
      const pipelined = reader();
      pipelined.read(hello + hello);
      pipelined.read(hello + hello);
      expect(pipelined.answers).toHaveLength(4);
      expect(pipelined.checked.bodies).toBe(4);

      const closing = reader();
      const close = hello.replace('Date: x', 'Connection: close');
      closing.read(close);
      closing.read(close);
      expect(closing.answers.map((a) => a.closes)).toEqual([true, true]);
      expect(closing.checked.bodies).toBe(2);
    });

    it('recalls nothing in the middle of an answer: the same bytes there are the rest of a body', () => {
      const { read, answers, parser } = reader();
      read(hello);
      // a longer answer whose last read holds exactly the remembered answer's bytes
      const head = `HTTP/1.1 200 OK\r\nContent-Length: ${5 + hello.length}\r\n\r\n`;
      read(head + 'abcde');
      expect(read(hello)).toBeUndefined();
      expect(answers.map((a) => [a.bytes, a.bodyBytes, a.bodyMatches])).toEqual([
        [hello.length, 11, true],
        [head.length + 5 + hello.length, 5 + hello.length, false],
      ]);
      expect(parser.midAnswer).toBe(false);
    });
  });
});
