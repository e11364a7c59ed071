import { MAX_LINE_BYTES } from './messages.js';

/**
 * Splits a byte stream into lines and hands each one, parsed as JSON, to `onMessage`; a line longer than
 * MAX_LINE_BYTES or one that is not JSON ends the reading with `onBad`, since the other end no longer speaks the
 * protocol (a line is never cut or guessed at).
 */
export function readJsonLines(
  stream: NodeJS.ReadableStream,
  onMessage: (message: unknown) => void,
  onBad: (why: string) => void,
  maxLineBytes = MAX_LINE_BYTES,
): void {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let bad = false;
  const fail = (why: string) => {
    if (bad) return;
    bad = true;
    onBad(why);
  };
  const take = (line: Buffer) => {
    const text = line.toString('utf8').trim();
    if (text === '') return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      fail(`a line that is not JSON: ${JSON.stringify(text.slice(0, 80))}`);
      return;
    }
    onMessage(message);
  };
  stream.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1 && !bad; newline = chunk.indexOf(10, start)) {
      const part = chunk.subarray(start, newline);
      if (pendingBytes + part.length > maxLineBytes) return fail(`a line longer than ${maxLineBytes} bytes`);
      take(pending.length > 0 ? Buffer.concat([...pending, part]) : part);
      pending = [];
      pendingBytes = 0;
      start = newline + 1;
    }
    if (bad || start >= chunk.length) return;
    const rest = chunk.subarray(start);
    pendingBytes += rest.length;
    if (pendingBytes > maxLineBytes) return fail(`a line longer than ${maxLineBytes} bytes`);
    pending.push(Buffer.from(rest));
  });
}

/** One message as a protocol line. */
export const jsonLine = (message: unknown): string => `${JSON.stringify(message)}\n`;
