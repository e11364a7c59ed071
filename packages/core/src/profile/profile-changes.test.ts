import { describe, expect, it } from 'vitest';
import { encodeFoldedStacks, type FoldedStacks } from './folded-stacks.js';
import { differentialFlameTree, type FlameNode } from './function-costs.js';
import { compareProfiledRuns } from './profile-changes.js';

// Two checkouts of one app: head added seven lines above checksum (now on line 15, was 8) and made it three times
// slower; V8 inlined its helper `mix` in head only, where bench gave it back as an inferred frame.
const base: FoldedStacks = new Map([
  ['handle server.mjs:20;checksum server.mjs:8', 10],
  ['handle server.mjs:20;checksum server.mjs:8;mix server.mjs:3', 4],
  ['handle server.mjs:20;send server.mjs:4', 20],
  ['handle server.mjs:20;onlyInBase server.mjs:30', 2],
]);
const head: FoldedStacks = new Map([
  ['handle server.mjs:27;checksum server.mjs:15', 30],
  ['handle server.mjs:27;checksum server.mjs:15;mix server.mjs:3 [inferred]', 12],
  ['handle server.mjs:27;send server.mjs:4', 20],
  ['handle server.mjs:27;onlyInHead server.mjs:40', 2],
]);
const runs = (stacks: FoldedStacks) => [{ stacks: encodeFoldedStacks(stacks), hz: 100, requests: 1000 }];

describe('profiles of two versions compared', () => {
  it('match a function by its name and file: moved lines leave it one function, neither gone nor new', () => {
    const compared = compareProfiledRuns(runs(base), runs(head), false)!;
    const named = (prefix: string) => compared.functions.filter((f) => f.name.startsWith(prefix));
    expect(named('checksum ')).toEqual([
      { name: 'checksum server.mjs:15', baseLine: 8, baseMicros: 100, headMicros: 300, changePercent: 200 },
    ]);
    expect(named('mix ')).toEqual([{ name: 'mix server.mjs:3 [inferred]', baseMicros: 40, headMicros: 120, changePercent: 200 }]);
    // handle moved too, and has no CPU of its own: it is not listed
    expect(named('handle ')).toEqual([]);
    expect(named('onlyInBase ')[0]?.onlyIn).toBe('base');
    expect(named('onlyInHead ')[0]?.onlyIn).toBe('head');
    expect(compared.functions.filter((f) => f.onlyIn !== undefined)).toHaveLength(2);
  });

  it("draw head against base with each moved function's change on its own frame", () => {
    const tree = differentialFlameTree(base, head, 1000, 1000);
    const find = (node: FlameNode, name: string): FlameNode | undefined =>
      node.name === name ? node : node.children.map((child) => find(child, name)).find(Boolean);
    expect(find(tree, 'checksum server.mjs:15')?.delta).toBe(20);
    expect(find(tree, 'mix server.mjs:3 [inferred]')?.delta).toBe(8);
    expect(find(tree, 'send server.mjs:4')?.delta ?? 0).toBe(0);
  });
});
