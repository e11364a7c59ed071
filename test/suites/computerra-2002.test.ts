import { describe, expect, it } from 'vitest';
import { row, runSuite } from '../support/suite-run.js';

// Suite computerra-2002 at a tiny scale on the real stacks: the article's rows and columns, its figures beside ours.
describe('bench suite computerra-2002', () => {
  it('computerra-2002: Parts I to III, one user and four users, ratios to mod_php', async () => {
    // mod_php, the tables' reference row: the other stacks have tests of their own
    const { text, doc } = await runSuite('computerra-2002', '0.01', ['--repeat', '1', '-t', 'php-mod']);
    expect(row(text, 'mod_php/Apache')).toMatch(
      /^\| mod_php\/Apache \| php-mod \| 561 \/ [\d,.]+ \| · \/ - \| 291 \/ [\d,.]+ \| 52 \/ [\d,.]+ \| 117 \/ [\d,.]+ \| 117 \/ [\d,.]+ \|$/,
    );
    expect(row(text, 'Resin/JDK1.2')).toMatch(/no counterpart here \| 509 \/ - \|/);
    expect(row(text, 'Resin/IBM JDK')).toMatch(/^\| Resin\/IBM JDK \| java-resin \(not run: not selected \(-t\)\) \| 694 \/ - \|/);
    expect(text).toMatch(/### Part II: four users \(total\)/);
    expect(new Set(doc.results.filter((r) => r.suiteRun === 'part2').map((r) => r.concurrency))).toEqual(new Set([1, 4]));
    expect(doc.results.filter((r) => r.suiteRun === 'part3').every((r) => r.engine?.name === 'ab')).toBe(true);
    expect(text).toMatch(/Published only: A hit parade measured on Windows NT, printed as published/);
  });
});
