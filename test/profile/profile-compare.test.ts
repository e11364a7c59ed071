import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchChromium, openLocalPage } from '../support/browser.js';
import { checkout, checksumLine, recipe, rpsRow } from '../support/ci-recipe.js';

// The CI recipe with --profile on two checkouts of examples/app: the head makes 10 more passes of checksum, and an
// edit put seven lines above it. The gate fails, and the verdict names checksum once, by head's line with base's
// beside it, from real V8 profiles of both checkouts; checksum, which V8 inlines into etag once the passes make etag
// hot, carries the inferred mark.
describe('the CI recipe with --profile on two checkouts', () => {
  it('fails a head that slowed one function it moved, names that function once, and draws base, head and their difference', async () => {
    const base = checkout('profiled-base');
    const head = checkout('profiled-head', { slowWork: 10, linesAboveChecksum: 7 });
    const [baseLine, headLine] = [checksumLine(base), checksumLine(head)];
    expect(headLine).toBe(baseLine + 7);
    // half-second runs: head reads about a quarter of base's rate, and checksum ten times its CPU a request, in each
    const run = await recipe(base, head, 'profiled', { maxTime: 60, maxRounds: 8, seconds: 0.5 }, '--profile --cpus server=0,client=1');
    const output = run.stdout + run.stderr;
    expect(run.stdout.match(rpsRow)?.[1], output).toBe('regressed');
    expect(run.code).toBe(1);

    const culprit = `most of it in \`checksum server.mjs:${headLine} [inferred]\``;
    expect(run.stderr).toMatch(/beyond --fail-if and the noise \(first: .*; most of it in `checksum server\.mjs/);
    expect(run.stderr, output).toContain(culprit);
    const verdict = run.stdout.split('\n').find((line) => line.startsWith('- list-items app-head vs app-base c=10: rps regressed'));
    expect(verdict, output).toContain(culprit);
    expect(verdict).toMatch(new RegExp(`; line ${baseLine} in base\\)$`));

    // the table of functions: each of the app's once, none new in head or gone from it
    const appRows = run.stdout.split('\n').filter((line) => /^\| `[^`]* server\.mjs:\d+/.test(line));
    const identities = appRows.map((line) => /^\| `(.*? server\.mjs):\d+/.exec(line)?.[1]);
    expect(new Set(identities).size, appRows.join('\n')).toBe(identities.length);
    expect(appRows.filter((line) => /\| (new|gone) \|/.test(line))).toEqual([]);
    expect(appRows.find((line) => line.includes('`checksum '))).toContain(
      `\`checksum server.mjs:${headLine} [inferred]\` (line ${baseLine} in base) |`,
    );
    expect(run.stdout).toMatch(/^- \[inferred\]: V8 had inlined this function into its caller/m);

    const html = path.join(run.outDir, 'comparison.html');
    expect(existsSync(html)).toBe(true);
    const browser = await launchChromium();
    try {
      const { page: tab, problems } = await openLocalPage(browser, html);
      await expect.poll(() => tab.locator('figure[data-flame] svg').count()).toBe(3);
      const captions = await tab.locator('figure[data-flame] figcaption').allInnerTexts();
      expect(captions[0]).toMatch(/head against base/);
      const firstRow = await tab.locator('table:has(caption:text("changed most")) tbody tr').first().innerText();
      expect(firstRow).toMatch(new RegExp(`^checksum server\\.mjs:${headLine} \\[inferred\\] \\(line ${baseLine} in base\\)\\t`));
      // the graph of head against base draws the inferred frame by its name and says what the mark means
      const difference = tab.locator('figure[data-flame]').first();
      expect(await difference.locator('svg').textContent()).toContain(`checksum server.mjs:${headLine} [inferred]`);
      await expect.poll(() => difference.locator('p.inferred').isVisible()).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
