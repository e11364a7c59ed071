import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { longFlag } from '@bench/core';
import { commandOptions, commandTable, type CommandName } from './command-table.js';
import { commandOptionsDoc, OPTIONS_DOC_END, OPTIONS_DOC_START } from './options-doc.js';

// docs/running.md's "Other commands' options" is written from the table: BENCH_WRITE_DOCS=1 writes it again
// (then `npx prettier --write docs/running.md` aligns what it aligns); without it, a doc that differs fails here.
const file = new URL('../../../../docs/running.md', import.meta.url);
const written = (doc: string) => {
  const start = doc.indexOf(OPTIONS_DOC_START);
  const end = doc.indexOf(OPTIONS_DOC_END);
  return start < 0 || end < start ? undefined : { start: start + OPTIONS_DOC_START.length, end };
};
if (process.env.BENCH_WRITE_DOCS === '1') {
  const doc = readFileSync(file, 'utf8');
  const at = written(doc);
  if (at) writeFileSync(file, `${doc.slice(0, at.start)}\n\n${commandOptionsDoc()}\n${doc.slice(at.end)}`);
}
const doc = readFileSync(file, 'utf8');

// as prettier leaves a table: cells padded to align, separators as long as their column
const normalized = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) =>
      line.startsWith('|')
        ? line
            .split(/(?<!\\)\|/)
            .map((c) => c.trim().replace(/^-+$/, '---'))
            .join('|')
        : line.trimEnd(),
    )
    .join('\n');

describe("docs/running.md's other commands' options", () => {
  it('are what the table says, flag for flag: default and meaning on each command', () => {
    const at = written(doc);
    expect(at, `docs/running.md holds ${OPTIONS_DOC_START} ... ${OPTIONS_DOC_END}`).toBeDefined();
    expect(normalized(doc.slice(at!.start, at!.end))).toBe(normalized(commandOptionsDoc()));
  });

  it("name every flag of every command (bench run's in its own table above)", () => {
    const missing = (Object.keys(commandTable) as CommandName[]).flatMap((name) =>
      commandOptions(name)
        .map((option) => longFlag(option.flags))
        .filter((flag) => !doc.includes(`${flag} `) && !doc.includes(`${flag}\``))
        .map((flag) => `${name} ${flag}`),
    );
    expect(missing).toEqual([]);
  });
});
