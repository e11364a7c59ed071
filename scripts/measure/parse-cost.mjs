// What the wire engine's parser and body check cost per answer, off the network: typical answers (the node target's
// Hello World through fastify, nginx's 311-byte page) framed by 3,000 parsers in turn, as a thread's connections are;
// then the same answers recalled by the run's answer memo (the same bytes as the last answer read whole), as the engine
// reads a server that repeats itself. After `npm run build`:
//   taskset -c 1 node scripts/measure/parse-cost.mjs
import { AnswerMemo } from '../../packages/engines/dist/wire/answer-memo.js';
import { bodyMatcher } from '../../packages/engines/dist/wire/body-matcher.js';
import { ResponseParser } from '../../packages/engines/dist/wire/response-parser.js';

const page = 'x'.repeat(311);
const answers = {
  'fastify hello': {
    text: 'HTTP/1.1 200 OK\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: 11\r\nDate: Thu, 26 Nov 2026 11:40:01 GMT\r\nConnection: keep-alive\r\nKeep-Alive: timeout=72\r\n\r\nHello World',
    body: 'Hello World',
  },
  'nginx page.html': {
    text: `HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Thu, 26 Nov 2026 11:40:01 GMT\r\nContent-Type: text/html\r\nContent-Length: 311\r\nLast-Modified: Thu, 26 Nov 2026 11:00:00 GMT\r\nConnection: keep-alive\r\nETag: "6745c4e0-137"\r\nAccept-Ranges: bytes\r\n\r\n${page}`,
    body: page,
  },
};
const ROUNDS = 3;
const N = 2_000_000;
for (let round = 1; round <= ROUNDS; round++)
  for (const [name, { text, body }] of Object.entries(answers))
    for (const memo of [false, true]) {
      const read = Buffer.from(new ArrayBuffer(65536));
      const length = read.write(text, 'latin1');
      const expected = Buffer.from(body);
      let wrong = 0;
      const sink = { parsedAnswer: (answer) => (wrong += answer.bodyMatches ? 0 : 1) };
      const memory = memo ? new AnswerMemo(read) : undefined;
      const parsers = Array.from(
        { length: 3000 },
        () => new ResponseParser(bodyMatcher({ kind: 'exact', length: expected.length, bytes: () => expected }), sink, false, memory),
      );
      const start = performance.now();
      for (let i = 0; i < N; i++) parsers[i % 3000].feed(read, length);
      const ns = ((performance.now() - start) * 1e6) / N;
      if (wrong > 0) throw new Error(`${wrong} bodies read as wrong`);
      // the first round compiles the code; the last ones are what a warm thread pays
      if (round > 1)
        console.log(`round ${round}: ${name} (${length} bytes), ${memo ? 'recalled' : 'framed'}: ${ns.toFixed(0)} ns an answer`);
    }
