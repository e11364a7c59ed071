import { describe, expect, it } from 'vitest';
import { printableLine } from '@bench/core';
import { markdownText } from './format.js';
import { renderMarkdown } from './markdown.js';
import { failedResult, fixtureDocument, okResult } from '../test-fixtures/document.js';
import { renderAbText } from './ab.js';

describe('markdownText', () => {
  it('leaves no image, link, autolink or HTML live', () => {
    expect(markdownText('![x](https://evil.test/p.png)')).toBe('!\\[x\\](https:\\/\\/evil.test/p.png)');
    expect(markdownText('[click](javascript:alert(1)) [a][ref]')).toBe('[click\\](javascript:alert(1)) [a\\][ref]');
    expect(markdownText('<img src=x onerror=alert(1)> a|b www.evil.test')).toBe('&lt;img src=x onerror=alert(1)> a|b www\\.evil.test');
  });
});

describe('a report of a server that sent markup and escape sequences', () => {
  const hostile = '\x1b]8;;http://evil.test\x07![x](https://evil.test/p.png)<b>|</b>';
  const doc = fixtureDocument([
    { ...okResult, notes: [`errors seen: bad Content-Length "${hostile}"`] },
    { ...failedResult, error: `verification failed: expected "ok", got "${hostile}"` },
  ]);

  it('holds none of it live in markdown or ab text, its cells recorded as a run records them (printableCell)', () => {
    const recorded = {
      ...doc,
      results: doc.results.map((r) => ({ ...r, notes: r.notes.map(printableLine), ...(r.error ? { error: printableLine(r.error) } : {}) })),
    };
    const markdown = renderMarkdown(recorded);
    const ab = recorded.results.map((r) => renderAbText(r, recorded)).join('\n');
    // no control character but the line ends and tabs of the reports' own layout
    const controls = (text: string) => [...text].filter((c) => c.charCodeAt(0) < 0x20 && c !== '\n' && c !== '\t');
    for (const text of [markdown, ab]) expect(controls(text)).toEqual([]);
    expect(markdown).not.toMatch(/!\[x\]\(|<b>|https:\/\/evil/);
    expect(markdown).toContain('!\\[x\\](https:\\/\\/evil.test/p.png)&lt;b>|&lt;/b>');
    // in the table, the failed cell's pipe is the table's to escape, once
    expect(markdown).toContain('!\\[x\\](https:\\/\\/evil.test/p.png)&lt;b>\\|&lt;/b>');
  });
});
