import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';
import { fixtureDocument, okResult } from '../test-fixtures/document.js';

describe('markdown reporter', () => {
  const text = renderMarkdown(fixtureDocument());
  const lines = text.split('\n');

  it('prints a table per scenario with the article 004 columns', () => {
    expect(lines).toContain('### escape');
    expect(lines).toContain('| target | c | rps | ms/req | p50 ms | p80 ms | p99 ms | failed | non-2xx | server CPU | server RSS |');
    expect(lines).toContain('| php-mod | 10 | 302.11 | 3.31 | 28.4 | 44.6 | 74.4 | 7 | 4 | 182% | 50.0 MiB |');
  });

  it('shows a failed cell as failed, with the error escaped so the table stays valid', () => {
    expect(lines).toContain('| php-cgi | 10 | failed: verification failed: status 500 \\| boom |  |  |  |  |  |  |  |  |');
  });

  it('says how the numbers were taken and that client and server share the host', () => {
    expect(text).toContain('a new connection per request (no keep-alive), 1000 requests per cell, 1 s warm-up.');
    expect(text).toContain('The load generator (autocannon 9.0.0) and the servers share these cores.');
    expect(text).toContain('- php-mod c=10: a note');
  });
});

describe('markdown reporter with --repeat', () => {
  it('shows repeated runs of a cell as one row of medians with the rps range', () => {
    const runs = [300, 330, 310].map((rps, i) => ({
      ...okResult,
      repeat: i + 1,
      rps,
      failed: 1,
      latency: { ...okResult.latency, p50: 10 + i, p80: 20 + i, p99: 30 + i },
      notes: [],
    }));
    const text = renderMarkdown(fixtureDocument(runs));
    expect(text).toContain('| php-mod | 10 (3 runs) | 310 [300-330] | 3.226 | 11 | 21 | 31 | 3 | 12 | 182% | 50.0 MiB |');
    expect(text).toContain('Repeated cells show medians, with the rps range in brackets.');
  });
});

describe('markdown reporter with thresholds', () => {
  it('lists every threshold with pass or FAIL', () => {
    const doc = {
      ...fixtureDocument([okResult]),
      thresholds: [
        {
          selector: '*',
          scenario: 'escape',
          target: 'php-mod',
          concurrency: 10,
          field: 'rps',
          expression: '>100',
          actual: 302.11,
          ok: true,
        },
        {
          selector: 'escape/php-mod',
          scenario: 'escape',
          target: 'php-mod',
          concurrency: 10,
          field: 'failed',
          expression: '==0',
          actual: 7,
          ok: false,
        },
      ],
    };
    const text = renderMarkdown(doc);
    expect(text).toContain('Thresholds: 2 checked, 1 failed.');
    expect(text).toContain('- escape/php-mod c=10: rps >100 (actual 302.11, from "*"): pass');
    expect(text).toContain('- escape/php-mod c=10: failed ==0 (actual 7, from "escape/php-mod"): FAIL');
  });
});
