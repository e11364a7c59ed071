import { describe, expect, it } from 'vitest';
import { serverHabits } from './http.js';

describe('serverHabits', () => {
  const raw = (...pairs: string[]) => pairs;
  it('names nothing for a plain answer with a length, or a chunked one', () => {
    expect(serverHabits(0, raw('Content-Length', '11'), 200, false)).toEqual([]);
    expect(serverHabits(0, raw('Transfer-Encoding', 'gzip, chunked'), 200, false)).toEqual([]);
  });

  it('names interim answers, bodies ended by the close, repeated lengths and lengths on bodiless answers', () => {
    expect(serverHabits(2, raw('Content-Length', '11'), 200, false)).toEqual(['interim answers']);
    expect(serverHabits(0, raw('Content-Type', 'text/plain'), 200, false)).toEqual(['a body ended by the close']);
    expect(serverHabits(0, raw('Transfer-Encoding', 'chunked, gzip'), 200, false)).toEqual(['a body ended by the close']);
    expect(serverHabits(0, raw('content-length', '11', 'Content-Length', '11'), 200, false)).toEqual(['a repeated Content-Length']);
    expect(serverHabits(0, raw('Content-Length', '11, 11'), 200, false)).toEqual(['a repeated Content-Length']);
    expect(serverHabits(0, raw('Content-Length', '11'), 304, false)).toEqual(['no body after a length']);
    expect(serverHabits(0, raw('Content-Length', '11'), 200, true)).toEqual(['no body after a length']);
    // a 204 without a length, or with 0, has none of them
    expect(serverHabits(0, raw(), 204, false)).toEqual([]);
    expect(serverHabits(0, raw('Content-Length', '0'), 204, false)).toEqual([]);
  });
});
