import { frameIdentity, INFERRED_MARK, isInferredFrame } from './frame-names.js';
import type { FoldedStacks } from './folded-stacks.js';

/** A function's samples: where it was the leaf (self) and where it was anywhere on the stack (total, once per stack). */
export interface FunctionCost {
  readonly name: string;
  readonly self: number;
  readonly total: number;
}

/** Every function's self and total samples, the most self first. */
export function functionCosts(stacks: FoldedStacks): FunctionCost[] {
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  for (const [stack, samples] of stacks) {
    const frames = stack.split(';');
    const leaf = frames[frames.length - 1] ?? '';
    self.set(leaf, (self.get(leaf) ?? 0) + samples);
    // a recursive function counts once per stack in its total
    for (const frame of new Set(frames)) total.set(frame, (total.get(frame) ?? 0) + samples);
  }
  return [...total]
    .map(([name, totalSamples]) => ({ name, self: self.get(name) ?? 0, total: totalSamples }))
    .sort((a, b) => b.self - a.self || b.total - a.total || a.name.localeCompare(b.name));
}

/** One frame of a flame graph: d3-flame-graph's node shape (value: samples at and under it). */
export interface FlameNode {
  name: string;
  value: number;
  children: FlameNode[];
  /** A differential graph's change at and under this frame (head minus base, in base's scale). */
  delta?: number;
}

/**
 * The call tree of the stacks, children merged by name (or by `identify(frame)`: a differential graph merges a
 * function's frames across lines), under one root named `rootName`.
 */
export function flameTree(stacks: FoldedStacks, rootName = 'all', identify: (frame: string) => string = (frame) => frame): FlameNode {
  const root: FlameNode = { name: rootName, value: 0, children: [] };
  const index = new Map<FlameNode, Map<string, FlameNode>>();
  const childOf = (parent: FlameNode, name: string): FlameNode => {
    let byKey = index.get(parent);
    if (!byKey) index.set(parent, (byKey = new Map<string, FlameNode>()));
    const key = identify(name);
    let child = byKey.get(key);
    if (!child) {
      child = { name, value: 0, children: [] };
      byKey.set(key, child);
      parent.children.push(child);
    } else if (isInferredFrame(name) && !isInferredFrame(child.name)) child.name += INFERRED_MARK;
    return child;
  };
  for (const [stack, samples] of stacks) {
    let node = root;
    root.value += samples;
    for (const frame of stack.split(';')) {
      node = childOf(node, frame);
      node.value += samples;
    }
  }
  return root;
}

/**
 * Head's call tree with each frame's own change against base (`delta`, in head's samples: what head spent there
 * beyond what base spent for as many requests), for d3-flame-graph's differential colours. Frames are matched by
 * their identity (frameIdentity: function and file, not line), so a function an edit moved down in head still meets
 * base's.
 */
export function differentialFlameTree(base: FoldedStacks, head: FoldedStacks, baseRequests: number, headRequests: number): FlameNode {
  const scale = baseRequests > 0 ? headRequests / baseRequests : 0;
  const byIdentity = (stack: string) => stack.split(';').map(frameIdentity).join(';');
  const tree = flameTree(head, 'all', frameIdentity);
  const find = (identities: readonly string[]): FlameNode | undefined => {
    let node: FlameNode | undefined = tree;
    for (const identity of identities) node = node?.children.find((child) => frameIdentity(child.name) === identity);
    return node;
  };
  const deltas = new Map<string, number>();
  for (const [stack, samples] of head) deltas.set(byIdentity(stack), (deltas.get(byIdentity(stack)) ?? 0) + samples);
  for (const [stack, samples] of base) deltas.set(byIdentity(stack), (deltas.get(byIdentity(stack)) ?? 0) - samples * scale);
  for (const [stack, delta] of deltas) {
    const node = find(stack.split(';'));
    // a stack only base ran has no frame in head's tree: the table of changes lists it
    if (node) node.delta = (node.delta ?? 0) + delta;
  }
  return tree;
}
