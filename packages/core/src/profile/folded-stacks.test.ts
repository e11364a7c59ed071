import { describe, expect, it } from 'vitest';
import {
  addStack,
  boundStacks,
  decodeFoldedStacks,
  encodeFoldedStacks,
  foldedText,
  MAX_DISTINCT_STACKS,
  MAX_STACK_DEPTH,
  mergeFoldedStacks,
  parseFoldedText,
  totalSamples,
  type FoldedStacks,
} from './folded-stacks.js';

describe('folded stacks', () => {
  it('add, merge and count samples by stack', () => {
    const a: FoldedStacks = new Map();
    addStack(a, ['main', 'handle', 'parse']);
    addStack(a, ['main', 'handle', 'parse'], 2);
    const b: FoldedStacks = new Map();
    addStack(b, ['main', 'idle;loop']);
    const merged = mergeFoldedStacks([a, b]);
    expect([...merged]).toEqual([
      ['main;handle;parse', 3],
      ['main;idle,loop', 1],
    ]);
    expect(totalSamples(merged)).toBe(4);
  });

  it('survive their text form and the deflated base64 results keep', () => {
    const stacks: FoldedStacks = new Map([
      ['a;b c;d', 5],
      ['a;e', 1],
    ]);
    expect(foldedText(stacks)).toBe('a;b c;d 5\na;e 1\n');
    expect(parseFoldedText(foldedText(stacks))).toEqual(stacks);
    expect(decodeFoldedStacks(encodeFoldedStacks(stacks))).toEqual(stacks);
  });

  it('keep the root and the leaf end of a stack deeper than the bound', () => {
    const stacks: FoldedStacks = new Map();
    addStack(
      stacks,
      Array.from({ length: 300 }, (_, i) => `f${i}`),
    );
    const [frames] = [...stacks.keys()].map((key) => key.split(';'));
    expect(frames).toHaveLength(MAX_STACK_DEPTH);
    expect(frames?.[0]).toBe('f0');
    expect(frames?.at(-1)).toBe('f299');
    expect(frames).toContain('…');
  });

  it('keep the most sampled stacks within the bound and say how many samples went', () => {
    const stacks: FoldedStacks = new Map(Array.from({ length: MAX_DISTINCT_STACKS + 10 }, (_, i) => [`s${i}`, i < 10 ? 1 : 2]));
    const { stacks: kept, droppedSamples } = boundStacks(stacks);
    expect(kept.size).toBe(MAX_DISTINCT_STACKS);
    expect(droppedSamples).toBe(10);
  });
});
