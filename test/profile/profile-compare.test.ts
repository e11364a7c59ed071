import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchChromium, openLocalPage } from '../support/browser.js';
import { checkout, recipe, rpsRow } from '../support/ci-recipe.js';

// The CI recipe with --profile: a head whose list route makes 10 more passes in its checksum fails the gate, and
// the verdict names that function, from real V8 profiles of both checkouts of examples/app.
describe('the CI recipe with --profile', () => {
  it('fails a head that slowed one function, names that function, and draws base, head and their difference', async () => {
    const run = await recipe(
      checkout('profiled-base'),
      checkout('profiled-head', 0, 10),
      'profiled',
      { maxTime: 60, maxRounds: 8 },
      '--profile --cpus server=0,client=1',
    );
    expect(run.stdout.match(rpsRow)?.[1], run.stdout + run.stderr).toBe('regressed');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /beyond --fail-if and the noise \(first: .*; most of it in `checksum server\.mjs:\d+` \(\+\d+\.\d% of CPU per request/,
    );
    expect(run.stdout).toMatch(/- list-items app-head vs app-base c=10: rps regressed .*; most of it in `checksum server\.mjs:\d+`/);
    const html = path.join(run.outDir, 'comparison.html');
    expect(existsSync(html)).toBe(true);
    const browser = await launchChromium();
    try {
      const { page: tab, problems } = await openLocalPage(browser, html);
      await expect.poll(() => tab.locator('figure[data-flame] svg').count()).toBe(3);
      const captions = await tab.locator('figure[data-flame] figcaption').allInnerTexts();
      expect(captions[0]).toMatch(/head against base/);
      const firstRow = await tab.locator('table:has(caption:text("changed most")) tbody tr').first().innerText();
      expect(firstRow).toMatch(/^checksum server\.mjs:\d+\t/);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
