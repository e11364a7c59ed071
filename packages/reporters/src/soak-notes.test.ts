import { describe, expect, it } from 'vitest';
import { renderAbText } from './ab.js';
import { renderMarkdown } from './markdown.js';
import { fixtureDocument, okResult } from '../test-fixtures/document.js';

const leak = 'server RSS grew 4.1 MB/min, R² 0.97: possible leak';

describe('soak notes', () => {
  const leaking = { ...okResult, notes: [leak] };
  const doc = { ...fixtureDocument(), results: [leaking] };

  it('reach the markdown report, one line per cell', () => {
    expect(renderMarkdown(doc).split('\n')).toContain(`- php-mod c=10: ${leak}`);
  });

  it('reach the ab report after its block', () => {
    const lines = renderAbText(leaking, doc).trimEnd().split('\n');
    expect(lines.at(-1)).toBe(`bench note: ${leak}`);
    expect(renderAbText({ ...okResult, notes: [] }, doc)).not.toContain('bench note:');
  });
});
