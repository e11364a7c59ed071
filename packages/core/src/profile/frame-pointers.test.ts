import { describe, expect, it } from 'vitest';
import { framePointerShare } from './frame-pointers.js';

// `readelf --debug-dump=frames-interp` of two functions each: Debian's php8.2 (no frame pointers: its frames are found
// from rsp) and Node's binary (built with them: from rbp once the prologue has run).
const withoutFramePointers = `Contents of the .eh_frame section:

00000030 0000000000000014 00000000 CIE "zR" cf=1 df=-8 ra=16
   LOC           CFA      ra
0000000000000000 rbp+8    c-8

00000048 0000000000000024 0000001c FDE cie=00000030 pc=00000000000eb020..00000000000ee380
   LOC           CFA      ra
00000000000eb020 rsp+16   c-8
00000000000eb030 exp      c-8

000000c4 0000000000000014 00000098 FDE cie=00000030 pc=000000000012bea0..000000000012bed2
   LOC           CFA      ra
000000000012bea0 rsp+8    c-8
`;
const withFramePointers = `00000078 000000000000001c 0000007c FDE cie=00000000 pc=0000000000bba000..0000000000bba04a
   LOC           CFA      rbx   rbp   ra
0000000000bba000 rsp+8    u     u     c-8
0000000000bba001 rsp+16   u     c-16  c-8
0000000000bba004 rbp+16   u     c-16  c-8
0000000000bba034 rsp+8    c-24  c-16  c-8

00000090 000000000000001c 00000094 FDE cie=00000000 pc=0000000000bba050..0000000000bba09a
   LOC           CFA      rbp   ra
0000000000bba050 rsp+8    u     c-8
0000000000bba054 rbp+16   c-16  c-8
`;

describe('frame pointers', () => {
  it("are judged from the share of a binary's functions whose unwind rules find the frame from rbp", () => {
    expect(framePointerShare(withoutFramePointers.split('\n'))).toEqual({ functions: 2, share: 0 });
    expect(framePointerShare(withFramePointers.split('\n'))).toEqual({ functions: 2, share: 1 });
  });
});
