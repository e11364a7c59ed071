import { describe, expect, it } from 'vitest';
import { BoundedBody, bodyKeepLimit, overLimitProblem } from './bounded-body.js';

describe('BoundedBody', () => {
  it('keeps a body up to its limit, exactly', () => {
    const body = new BoundedBody(10);
    body.push(Buffer.from('hello '));
    body.push(Buffer.from('you!'));
    expect([body.over, body.total, body.bytes().toString()]).toEqual([false, 10, 'hello you!']);
  });

  it('lets go of a body one byte past the limit and only counts the rest', () => {
    const body = new BoundedBody(10);
    body.push(Buffer.from('hello '));
    body.push(Buffer.from('world'));
    body.push(Buffer.alloc(1 << 20));
    expect([body.over, body.total, body.bytes().length]).toEqual([true, 11 + (1 << 20), 0]);
    body.reset();
    body.push(Buffer.from('ok'));
    expect([body.over, body.bytes().toString()]).toEqual([false, 'ok']);
  });

  it('copies a slice of a reused buffer when asked', () => {
    const read = Buffer.from('abc');
    const body = new BoundedBody(10);
    body.push(read, true);
    read.write('xyz');
    expect(body.bytes().toString()).toBe('abc');
  });

  it('keeps an exact body to its length, nothing for any body, and the limit for a text check', () => {
    expect(bodyKeepLimit({ kind: 'exact', length: 11, bytes: () => Buffer.alloc(11) }, 100)).toBe(11);
    expect(bodyKeepLimit({ kind: 'any' }, 100)).toBe(0);
    expect(bodyKeepLimit({ kind: 'json', subset: {} }, 100)).toBe(100);
    expect(overLimitProblem(2000, 1024)).toBe('body of 2000 bytes, over the 1024 bytes a body check reads (--max-checked-body)');
  });
});
