import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { FoldedStacks } from './folded-stacks.js';
import { foldV8Profile } from './v8-profiler.js';

// One script of an app; `handle` starts on line 20 (0-based 19), as V8 names it.
const source = [
  'function mix(sum, code) {', // 1
  '  return (sum * 31 + code) | 0;', // 2: mix's body
  '}',
  'function checksum(text) {', // 4
  '  let sum = 0;',
  '  for (let i = 0; i < text.length; i++) sum = mix(sum, text.charCodeAt(i));', // 6: checksum's loop
  '  return sum;',
  '}',
  'function send(res, value) {', // 9
  '  return JSON.stringify(value);', // 10: send's body
  '}',
  'function unrelated() {', // 12
  '  return 1;', // 13: a function handle never calls
  '}',
  'class Page {',
  '  render(items) {', // 16
  '    return items.length;', // 17: a method
  '  }',
  '}',
  'export function handle(res, text) {', // 20
  '  res.send(text);', // 21: res's send, not this script's
  '  return checksum(text) + new Page().count;',
  '}',
  'Page.prototype.show = function show(items) {', // 24
  '  return this.render(items);',
  '};',
  'function both(text) {', // 27
  '  return checksum(text) + mix(1, 2);',
  '}',
  "for (let i = 0; i < 1000; i++) handle({ send() {} }, 'x');", // 30: the top level
].join('\n');

/** The folded stacks of one node of `handle` (or `show`) whose samples fell on these lines (1-based) of src/app.mjs. */
function fold(lines: Record<number, number>, caller = { name: 'handle', line: 19 }, inFolder = false): [string, number][] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-inlined-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'src'));
  const file = path.join(dir, 'src', 'app.mjs');
  writeFileSync(file, source);
  const url = pathToFileURL(file).href;
  const positionTicks = Object.entries(lines).map(([line, ticks]) => ({ line: Number(line), ticks }));
  const total = positionTicks.reduce((sum, t) => sum + t.ticks, 0);
  const stacks: FoldedStacks = new Map();
  foldV8Profile(
    {
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2] },
        { id: 2, callFrame: { functionName: caller.name, url, lineNumber: caller.line }, positionTicks },
      ],
      samples: Array.from({ length: total }, () => 2),
    },
    stacks,
    inFolder ? { folder: dir } : {},
  );
  return [...stacks];
}

describe('a function V8 inlined into its caller', () => {
  it('is given back the samples on its lines, as a frame under its caller marked inferred', () => {
    expect(fold({ 6: 6, 22: 4 })).toEqual([
      ['handle app.mjs:20;checksum app.mjs:4 [inferred]', 6],
      ['handle app.mjs:20', 4],
    ]);
  });

  it('through the calls that reach it, each an inferred frame (V8 inlines a call inside an inlined call)', () => {
    expect(fold({ 2: 5, 6: 1 })).toEqual([
      ['handle app.mjs:20;checksum app.mjs:4 [inferred];mix app.mjs:1 [inferred]', 5],
      ['handle app.mjs:20;checksum app.mjs:4 [inferred]', 1],
    ]);
  });

  it('directly under its caller when the caller reaches it by more than one way (which one ran is not known)', () => {
    expect(fold({ 2: 3 }, { name: 'both', line: 26 })).toEqual([['both app.mjs:27;mix app.mjs:1 [inferred]', 3]]);
  });

  it("only when the caller really calls it: res.send(...) is not this script's send", () => {
    expect(fold({ 10: 3 })).toEqual([['handle app.mjs:20', 3]]);
  });

  it("leaves with the caller a line in a function it never calls (another script's inlined line, numbered in that script)", () => {
    expect(fold({ 13: 3 })).toEqual([['handle app.mjs:20', 3]]);
  });

  it('follows this.name(...) to a method of that name', () => {
    expect(fold({ 17: 2 }, { name: 'show', line: 23 })).toEqual([['show app.mjs:24;render app.mjs:16 [inferred]', 2]]);
  });

  it("from the script's top level, which V8 names as a function on line -1", () => {
    expect(fold({ 6: 2, 30: 1 }, { name: '', line: -1 })).toEqual([
      ['(anonymous) app.mjs:0;handle app.mjs:20 [inferred];checksum app.mjs:4 [inferred]', 2],
      ['(anonymous) app.mjs:0', 1],
    ]);
  });

  it("names its file as the caller's: relative to the target's folder", () => {
    expect(fold({ 6: 1 }, undefined, true)).toEqual([['handle src/app.mjs:20;checksum src/app.mjs:4 [inferred]', 1]]);
  });
});
