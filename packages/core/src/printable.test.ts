import { describe, expect, it } from 'vitest';
import { printable, printableLine } from './printable.js';

describe('printable', () => {
  it('escapes every control a terminal would act on, and bidi controls, doubling the backslash', () => {
    expect(printable('\x1b]8;;http://evil.test\x07click\x1b]8;;\x07')).toBe('\\x1b]8;;http://evil.test\\x07click\\x1b]8;;\\x07');
    expect(printable('a\r\nb\tc\0\x7f\x9b')).toBe('a\\r\\nb\\tc\\x00\\x7f\\x9b');
    expect(printable('right\u202eleft')).toBe('right\\u{202e}left');
    expect(printable('C:\\path')).toBe('C:\\\\path');
    expect(printable('ünïcødé ✓')).toBe('ünïcødé ✓');
  });

  it('reads bytes as UTF-8 where they are, an invalid byte as \\xNN', () => {
    expect(printable(Buffer.from([0x48, 0x69, 0xff, 0xc3, 0xa9, 0xe2, 0x28, 0x1b]))).toBe('Hi\\xffé\\xe2(\\x1b');
  });

  it('bounds the length, saying how much was cut', () => {
    expect(printable('x'.repeat(130))).toBe(`${'x'.repeat(120)}... (10 more)`);
    expect(printable('abcdef', 3)).toBe('abc... (3 more)');
  });

  it("leaves a line of bench's own as it is but for its controls", () => {
    expect(printableLine('errors seen: C:\\path \x1b[2J')).toBe('errors seen: C:\\path \\x1b[2J');
    expect(printableLine(printable('\x1b'))).toBe(printable('\x1b'));
  });
});
