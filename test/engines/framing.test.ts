import { readdirSync, readFileSync, writeFileSync, rmSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BodyExpectation } from '@bench/core';
// the framers as built: the js core's parser and the native core's (through its test entry point)
import { bodyMatcher } from '../../packages/engines/dist/wire/body-matcher.js';
import { nativeLoop, type FramedForTest } from '../../packages/engines/dist/wire/native-loop.js';
import { ResponseParser, type ParsedAnswer } from '../../packages/engines/dist/wire/response-parser.js';
import { answerCases, caseBytes, EXPECTED_BODY, type AnswerCase, type Framed } from '../support/http-answers.js';
import { repoRoot } from '../support/cli.js';

// Both of wire's framers against every case of test/support/http-answers.ts, its bytes cut at every offset (in two
// reads), and dripped a byte a read: each answer framed as the case says, or the failure it names, the same on both.
const expected = Buffer.from(EXPECTED_BODY);
const exact: BodyExpectation = { kind: 'exact', length: expected.length, bytes: () => expected };
const native = nativeLoop().loop;

type Outcome = { status: number; bytes: number; bodyBytes: number; bodyOk: boolean; closes: boolean } | { error: string };

/** What the js core's parser makes of these reads, each in a buffer overwritten after the call (as the read buffer is). */
function jsFramed(reads: Buffer[], c: AnswerCase): Outcome[] {
  const out: Outcome[] = [];
  const sink = {
    parsedAnswer: (a: ParsedAnswer) =>
      out.push({ status: a.status, bytes: a.bytes, bodyBytes: a.bodyBytes, bodyOk: a.bodyMatches, closes: a.closes }),
  };
  const parser = new ResponseParser(bodyMatcher(exact), sink, c.headOnly ?? false);
  for (const read of reads) {
    const copy = Buffer.from(read);
    const error = parser.feed(copy);
    copy.fill(0);
    if (error) return [...out, { error: error.replace(/^malformed answer: /, '') }];
  }
  const error = c.thenCloses ? parser.end() : undefined;
  return error ? [...out, { error: error.replace(/^malformed answer: /, '') }] : out;
}

function nativeFramed(reads: Buffer[], c: AnswerCase): Outcome[] {
  return native!.frame(reads, expected, c.headOnly ? 1 : 0, c.thenCloses ?? false).map((r: FramedForTest) => ({ ...r }));
}

/** The outcomes a case says, each answer's bytes its own length on the wire. */
function wanted(c: AnswerCase): Outcome[] {
  const out: Outcome[] = [];
  for (const { bytes, framed } of c.answers) {
    out.push(withDefaults(framed, Buffer.byteLength(bytes, 'latin1')));
    if ('error' in framed) break;
  }
  return out;
}
const withDefaults = (f: Framed, bytes: number): Outcome =>
  'error' in f ? f : { status: f.status, bytes, bodyBytes: f.bodyBytes, bodyOk: f.bodyOk ?? true, closes: f.closes ?? false };

/** Ways to cut a case's bytes into reads: whole, in two at every offset (a sample of them past 2,000 bytes), a byte a read. */
function cuts(bytes: Buffer): Array<{ how: string; reads: Buffer[] }> {
  const ways = [{ how: 'whole', reads: [bytes] }];
  const step = bytes.length > 2000 ? Math.ceil(bytes.length / 400) : 1;
  for (let at = 1; at < bytes.length; at += step) ways.push({ how: `cut at ${at}`, reads: [bytes.subarray(0, at), bytes.subarray(at)] });
  if (bytes.length <= 2000) ways.push({ how: 'a byte a read', reads: [...bytes].map((b) => Buffer.from([b])) });
  return ways;
}

describe.each(answerCases.map((c) => [c.name, c] as const))('framing: %s', (_name, c) => {
  const bytes = caseBytes(c);
  const want = wanted(c);

  it('the js core frames it as the case says, however the reads cut it', () => {
    for (const { how, reads } of cuts(bytes)) expect(jsFramed(reads, c), how).toEqual(want);
  });

  it('the native core frames it the same', () => {
    // the native core must be built here: CI installs a C compiler (scripts/setup/setup-system.sh) for it
    expect(native, nativeLoop().missing).toBeDefined();
    for (const { how, reads } of cuts(bytes)) expect(nativeFramed(reads, c), how).toEqual(want);
  });
});

// The fuzzing harness starts from these same cases: its seed corpus is them, byte for byte (BENCH_WRITE_CORPUS=1
// writes it again after a case changes). A seed is a flags byte (1: HEAD, 2: the server closes after), a byte that
// seeds how the harness cuts reads, then the bytes.
describe('the framer fuzzing corpus', () => {
  const corpus = path.join(repoRoot, 'packages/engines/native/fuzz/corpus');
  const seeds = new Map(
    answerCases.map((c) => {
      const name = c.name
        .replace(/[^a-z0-9]+/gi, '-')
        .replace(/^-|-$/g, '')
        .toLowerCase();
      const flags = (c.headOnly ? 1 : 0) | (c.thenCloses ? 2 : 0);
      return [name, Buffer.concat([Buffer.from([flags, 0]), caseBytes(c)])] as const;
    }),
  );
  if (process.env.BENCH_WRITE_CORPUS === '1') {
    rmSync(corpus, { recursive: true, force: true });
    mkdirSync(corpus, { recursive: true });
    for (const [name, seed] of seeds) writeFileSync(path.join(corpus, name), seed);
  }

  it('holds every case, byte for byte', () => {
    expect(readdirSync(corpus).sort()).toEqual([...seeds.keys()].sort());
    for (const [name, seed] of seeds) expect(readFileSync(path.join(corpus, name)).equals(seed), name).toBe(true);
  });
});
