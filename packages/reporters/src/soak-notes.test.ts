import { describe, expect, it } from 'vitest';
import { renderAbText } from './ab.js';
import { renderMarkdown } from './markdown.js';
import { renderRunHtml } from './html/run-report.js';
import { fixtureDocument, okResult } from '../test-fixtures/document.js';

const leak = 'server RSS grew 4.1 MB/min, R² 0.97: possible leak';

describe('soak notes', () => {
  const leaking = { ...okResult, notes: [leak] };
  const doc = { ...fixtureDocument(), results: [leaking] };

  it('reach the markdown report, one line per cell', () => {
    expect(renderMarkdown(doc).split('\n')).toContain(`- php-mod c=10: ${leak}`);
  });

  it('reach the HTML report, in the cell they belong to', () => {
    expect(renderRunHtml(doc)).toContain(`<li class="note">${leak}</li>`);
  });

  it('reach the ab report after its block', () => {
    const lines = renderAbText(leaking, doc).trimEnd().split('\n');
    expect(lines.at(-1)).toBe(`bench note: ${leak}`);
    expect(renderAbText({ ...okResult, notes: [] }, doc)).not.toContain('bench note:');
  });

  it('give a long cell a soak line whatever its verdicts, and a short one none', () => {
    const soak = {
      seconds: 600,
      rss: { slopeMBPerMin: 0.12, r2: 0.08, startBytes: 1, endBytes: 2 },
      rps: { windowSeconds: 60, first: 10_000, last: 9_900, driftPercent: -1, p: 0.41 },
      p99: { windowSeconds: 60, first: 40, last: 41, driftPercent: 2.5, p: 0.62 },
      coolDown: { afterSeconds: 3, rssBytes: 1, returned: true },
    };
    const long = renderMarkdown({ ...fixtureDocument(), results: [{ ...okResult, soak }] });
    expect(long.split('\n')).toContain(
      '- php-mod c=10: soak over 600 s: server RSS +0.12 MB/min (R² 0.08), throughput -1% (p = 0.41), p99 +2.5% (p = 0.62), memory came back 3 s after the load',
    );
    const short = renderMarkdown({ ...fixtureDocument(), results: [{ ...okResult, soak: { ...soak, seconds: 10 } }] });
    expect(short).not.toContain('soak over');
    expect(renderRunHtml({ ...fixtureDocument(), results: [{ ...okResult, soak }] })).toContain(
      '<li class="note">soak over 600 s: server RSS +0.12 MB/min (R² 0.08), throughput -1% (p = 0.41), p99 +2.5% (p = 0.62), memory came back 3 s after the load</li>',
    );
  });

  it('write a p-value that rounded to 0 as below the last decimal kept', () => {
    const soak = { seconds: 1800, rps: { windowSeconds: 180, first: 47_981.5, last: 55_918.5, driftPercent: 16.5, p: 0 } };
    const report = renderMarkdown({ ...fixtureDocument(), results: [{ ...okResult, soak }] });
    expect(report).toContain('soak over 1800 s: throughput +16.5% (p < 0.0001)');
  });
});
