import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { longFlag } from '@bench/core';
import { runOptionDeclarations } from './declarations.js';
import { commandOptionDeclarations } from './command-options.js';

const doc = readFileSync(new URL('../../../../docs/running.md', import.meta.url), 'utf8');
const section = doc.slice(doc.indexOf('### Ranges'), doc.indexOf('\n## ', doc.indexOf('### Ranges')));

describe("docs/running.md's ranges", () => {
  it('give every ranged option of bench run with the range it is declared with', () => {
    const rows = section.split('\n').filter((line) => line.startsWith('| `'));
    const wrong = Object.values(runOptionDeclarations)
      .filter((d) => d.range !== undefined)
      .map((d) => ({ flag: longFlag(d.flags), range: d.range! }))
      .filter(({ flag, range }) => !rows.some((row) => row.includes(`\`${flag}\``) && row.includes(`| ${range.min} | ${range.max} |`)))
      .map(({ flag }) => flag);
    expect(wrong).toEqual([]);
  });

  it("give every ranged flag of the other commands with its range, after the table's", () => {
    const escaped = (n: number) => String(n).replace('.', '\\.');
    const prose = section.replace(/\s+/g, ' ');
    const wrong = Object.values(commandOptionDeclarations)
      .filter((d) => d.range !== undefined)
      .map((d) => ({ flag: longFlag(d.flags), range: d.range! }))
      .filter(({ flag, range }) => !new RegExp(`${flag}\`[^.]{0,60}?\\b${escaped(range.min)} to ${escaped(range.max)}\\b`).test(prose))
      .map(({ flag }) => flag);
    expect(wrong).toEqual([]);
  });
});
