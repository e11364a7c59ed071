// Bytes a server sent (and values a data file holds) end up in notes, samples and errors, and from there on a terminal
// and in markdown a CI job posts. A server is input: nothing it sends may act there as a control sequence (an ESC that
// rewrites the screen or plants a link, a CR that hides what came before) or as text that turns around (bidi controls).

/** The longest quote of a server's bytes a message holds by default. */
export const PRINTABLE_MAX = 120;

const hex = (code: number) => `\\x${code.toString(16).padStart(2, '0')}`;

/** A code point that must not reach a terminal as itself: C0 and C1 controls, DEL, and the bidi overrides and isolates. */
function unsafe(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

function escapeCode(code: number): string {
  if (code === 0x0a) return '\\n';
  if (code === 0x0d) return '\\r';
  if (code === 0x09) return '\\t';
  return code <= 0xff ? hex(code) : `\\u{${code.toString(16)}}`;
}

/** The characters of a text, each control escaped (and, for a quote, the backslash doubled, so an escape is never ambiguous). */
function escapeText(text: string, quote = true): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out += quote && char === '\\' ? '\\\\' : unsafe(code) ? escapeCode(code) : char;
  }
  return out;
}

/** Bytes as UTF-8 where they are, each byte of an invalid sequence as \xNN. */
function decodeBytes(bytes: Uint8Array): string {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let out = '';
  for (let at = 0; at < bytes.length;) {
    const first = bytes[at]!;
    const length =
      first < 0x80 ? 1 : first >= 0xc2 && first <= 0xdf ? 2 : first >= 0xe0 && first <= 0xef ? 3 : first >= 0xf0 && first <= 0xf4 ? 4 : 0;
    if (length > 0 && at + length <= bytes.length) {
      try {
        out += escapeText(decoder.decode(bytes.subarray(at, at + length)));
        at += length;
        continue;
      } catch {
        // an invalid sequence: its first byte escaped, the rest read again
      }
    }
    out += hex(first);
    at += 1;
  }
  return out;
}

/**
 * Text from a server or a data file as it may be shown anywhere: control characters (ESC, CR, LF, NUL, DEL, C1, bidi
 * controls) and invalid UTF-8 escaped, the backslash doubled, and at most `max` characters (then "... N more").
 */
export function printable(input: string | Uint8Array, max = PRINTABLE_MAX): string {
  const text = typeof input === 'string' ? escapeText(input) : decodeBytes(input);
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('')}... (${chars.length - max} more)` : text;
}

/**
 * A line bench wrote that may hold a server's words (a note, an error): every control escaped, nothing cut, nothing
 * else changed (a quote already made printable stays as it is).
 */
export const printableLine = (text: string): string => escapeText(text, false);
