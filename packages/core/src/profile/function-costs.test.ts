import { describe, expect, it } from 'vitest';
import { flameTree, functionCosts } from './function-costs.js';

const stacks = new Map([
  ['main;handle;parse', 6],
  ['main;handle;render', 3],
  ['main;walk;walk;walk', 1],
]);

describe('function costs', () => {
  it('count self where a function is the leaf and total once per stack (recursion counted once)', () => {
    const costs = functionCosts(stacks);
    expect(costs[0]).toEqual({ name: 'parse', self: 6, total: 6 });
    expect(costs.find((c) => c.name === 'handle')).toEqual({ name: 'handle', self: 0, total: 9 });
    expect(costs.find((c) => c.name === 'walk')).toEqual({ name: 'walk', self: 1, total: 1 });
    expect(costs.find((c) => c.name === 'main')?.total).toBe(10);
  });

  it('build the call tree a flame graph draws, children merged by name', () => {
    const tree = flameTree(stacks);
    expect(tree.value).toBe(10);
    const main = tree.children[0];
    expect(main?.name).toBe('main');
    expect(main?.children.map((c) => [c.name, c.value])).toEqual([
      ['handle', 9],
      ['walk', 1],
    ]);
  });
});
