import { describe, expect, it } from 'vitest';
import { compareProfiledRuns, encodeFoldedStacks, type CellResult } from '@bench/core';
import { fixtureDocument, okResult } from '../../test-fixtures/document.js';
import { renderAbText } from '../ab.js';
import { renderRunHtml } from '../html/run-report.js';
import { renderMarkdown } from '../markdown.js';
import { profileDifference } from './flame-html.js';
import { functionChangesMarkdown } from './function-changes.js';

// A profile where bench gave V8's inlined `checksum` back its samples: every view names the frame with its mark and
// says once what the mark means.
const stacks = (checksum: number) =>
  encodeFoldedStacks(
    new Map([
      ['handle server.mjs:20;etag server.mjs:30;checksum server.mjs:37 [inferred]', checksum],
      ['handle server.mjs:20;send server.mjs:4', 10],
    ]),
  );
const profiled: CellResult = {
  ...okResult,
  profile: {
    profilers: ['v8 (1 process)'],
    hz: 99,
    samples: 40,
    processes: 1,
    encoding: 'folded-deflate-base64',
    stacks: stacks(30),
    notes: [],
  },
};
const legend = /\[inferred\]: V8 had inlined this function into its caller; bench gave it back the samples on its lines/;

describe('a frame bench inferred', () => {
  it("carries its mark in the run's markdown and ab reports, with what it means", () => {
    const markdown = renderMarkdown(fixtureDocument([profiled]));
    expect(markdown).toContain('| `checksum server.mjs:37 [inferred]` |');
    expect(markdown).toMatch(legend);
    const ab = renderAbText(profiled, fixtureDocument([profiled]));
    expect(ab).toMatch(/ {2}checksum server\.mjs:37 \[inferred\]$/m);
    expect(ab).toMatch(legend);
  });

  it("carries it in the run's HTML: its flame graph, drawn in a colour of its own, and its table", () => {
    const html = renderRunHtml(fixtureDocument([profiled]));
    expect(html).toContain('"name":"checksum server.mjs:37 [inferred]"');
    expect(html).toContain('<td>checksum server.mjs:37 [inferred]</td>');
    expect(html.match(/<p class="note inferred">[^<]*<\/p>/g)).toHaveLength(2);
    expect(html).toContain('[inferred] (drawn in violet): V8 had inlined');
  });

  it("carries it in a comparison's table and its flame graphs", () => {
    const run = (checksum: number) => ({ stacks: stacks(checksum), hz: 99, requests: 1000 });
    const profile = compareProfiledRuns([run(30)], [run(90)], false)!;
    const markdown = functionChangesMarkdown({
      paired: undefined,
      cells: [{ scenario: 'list-items', target: 'app', concurrency: 10, metrics: [], profile }],
    } as unknown as Parameters<typeof functionChangesMarkdown>[0]).join('\n');
    expect(markdown).toContain('| `checksum server.mjs:37 [inferred]` |');
    expect(markdown).toMatch(legend);
    const html = profileDifference('list-items app c=10', profile);
    expect(html).toContain('<td>checksum server.mjs:37 [inferred]</td>');
    expect(html).toContain('"name":"checksum server.mjs:37 [inferred]"');
    expect(html).toMatch(legend);
  });
});
