import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readJsonLines } from './json-lines.js';

function read(chunks: readonly string[], maxLineBytes?: number) {
  const stream = new PassThrough();
  const messages: unknown[] = [];
  const bad: string[] = [];
  readJsonLines(
    stream,
    (m) => messages.push(m),
    (why) => bad.push(why),
    maxLineBytes,
  );
  for (const chunk of chunks) stream.write(chunk);
  return { messages, bad };
}

describe('readJsonLines', () => {
  it('takes lines however they are cut into chunks', () => {
    expect(read(['{"a":', '1}\n{"b"', ':2}\n\n{"c":3}', '\n']).messages).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
  });

  it('stops at the first line that is not JSON, or is longer than the bound, and reads nothing after it', () => {
    expect(read(['{"a":1}\nhello\n{"b":2}\n'])).toEqual({ messages: [{ a: 1 }], bad: ['a line that is not JSON: "hello"'] });
    expect(read(['{"a":"', 'x'.repeat(40), '"}\n{"b":2}\n'], 32)).toEqual({ messages: [], bad: ['a line longer than 32 bytes'] });
    expect(read(['x'.repeat(40)], 32).bad).toEqual(['a line longer than 32 bytes']);
  });
});
