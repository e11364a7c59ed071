import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runDocumentSchema, type RunDocument } from '@bench/core';
import { suiteSection } from './suite-section.js';

// a `bench suite techempower --scale 0.05 -t node,php-fpm` run, kept without its series and histograms
const recorded: RunDocument = runDocumentSchema.parse(
  JSON.parse(readFileSync(new URL('../../test-fixtures/techempower-run.json', import.meta.url), 'utf8')),
);

describe("a suite run's section", () => {
  it('is the markdown tables as text, and on the page those tables as HTML', async () => {
    const markdown = suiteSection.markdown(recorded);
    expect(markdown).toMatch(/^\| .* \|$/m);
    const html = await suiteSection.html?.(recorded);
    expect(html).toMatch(/^<section class="suite">[\s\S]*<table>[\s\S]*<\/table>[\s\S]*<\/section>/);
    expect(html).not.toMatch(/^\|/m);
  });

  it('has nothing to say of a run that is no suite run', async () => {
    const { suite: _suite, ...plain } = recorded;
    expect(suiteSection.markdown(plain)).toBeUndefined();
    expect(await suiteSection.html?.(plain)).toBeUndefined();
  });
});
