import { describe, expect, it } from 'vitest';
import { requestScenario, wirePath } from './request-scenario.js';

describe('a request spec', () => {
  it('sends its path as a URL parser makes it, whatever the engine: a space and non-ASCII percent-encoded', () => {
    expect(requestScenario({ name: 'search', path: '/search?q=new york' }).request.path).toBe('/search?q=new%20york');
    expect(wirePath('/café/ü?x=1#top')).toBe('/caf%C3%A9/%C3%BC?x=1');
    expect(wirePath('/items?token=abc&id=2')).toBe('/items?token=abc&id=2');
  });

  it('refuses a path or a header holding CR, LF or NUL, which would split a request written as text', () => {
    expect(() => requestScenario({ name: 'split', path: '/a\r\nX-Injected: 1' })).toThrow(/a path without CR, LF or NUL/);
    expect(() => requestScenario({ name: 'nul', path: '/a\0b' })).toThrow(/a path without CR, LF or NUL/);
    expect(() => requestScenario({ name: 'header', path: '/', headers: { 'X-A': 'b\r\nX-B: c' } })).toThrow(
      /a header value without CR, LF or NUL/,
    );
  });
});
