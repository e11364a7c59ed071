import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** CPU samples by call stack, root first, frames joined by ';' (Brendan Gregg's folded format): stack -> samples. */
export type FoldedStacks = Map<string, number>;

/** The most distinct stacks a cell keeps; the rarest beyond it are dropped (and the profile says so). */
export const MAX_DISTINCT_STACKS = 20_000;
/** The deepest stack kept: deeper ones keep their root and their leaf end ('…' between). */
export const MAX_STACK_DEPTH = 128;

/** Adds one sampled stack (frames root first). */
export function addStack(stacks: FoldedStacks, frames: readonly string[], samples = 1): void {
  if (frames.length === 0 || samples <= 0) return;
  const kept =
    frames.length > MAX_STACK_DEPTH
      ? [...frames.slice(0, MAX_STACK_DEPTH / 2), '…', ...frames.slice(frames.length - MAX_STACK_DEPTH / 2 + 1)]
      : frames;
  // ';' separates frames: a frame name holding one is spelt with ',' instead
  const key = kept.map((frame) => frame.replaceAll(';', ',')).join(';');
  stacks.set(key, (stacks.get(key) ?? 0) + samples);
}

export function mergeFoldedStacks(all: readonly FoldedStacks[]): FoldedStacks {
  const merged: FoldedStacks = new Map();
  for (const stacks of all) for (const [stack, samples] of stacks) merged.set(stack, (merged.get(stack) ?? 0) + samples);
  return merged;
}

export const totalSamples = (stacks: FoldedStacks): number => [...stacks.values()].reduce((sum, n) => sum + n, 0);

/** Keeps the most sampled stacks up to MAX_DISTINCT_STACKS; says how many samples it dropped. */
export function boundStacks(stacks: FoldedStacks): { stacks: FoldedStacks; droppedSamples: number } {
  if (stacks.size <= MAX_DISTINCT_STACKS) return { stacks, droppedSamples: 0 };
  const sorted = [...stacks].sort((a, b) => b[1] - a[1]);
  const kept = sorted.slice(0, MAX_DISTINCT_STACKS);
  const droppedSamples = sorted.slice(MAX_DISTINCT_STACKS).reduce((sum, [, n]) => sum + n, 0);
  return { stacks: new Map(kept), droppedSamples };
}

/** The folded text: one "frame;frame;frame count" line per stack, as flamegraph.pl and speedscope read it. */
export function foldedText(stacks: FoldedStacks): string {
  return [...stacks].map(([stack, samples]) => `${stack} ${samples}\n`).join('');
}

export function parseFoldedText(text: string): FoldedStacks {
  const stacks: FoldedStacks = new Map();
  for (const line of text.split('\n')) {
    const space = line.lastIndexOf(' ');
    if (space <= 0) continue;
    const samples = Number(line.slice(space + 1));
    if (Number.isFinite(samples) && samples > 0) stacks.set(line.slice(0, space), (stacks.get(line.slice(0, space)) ?? 0) + samples);
  }
  return stacks;
}

/** The folded text deflated and in base64, as results keep it (stacks repeat their prefixes: it shrinks ten-fold). */
export const encodeFoldedStacks = (stacks: FoldedStacks): string => deflateRawSync(foldedText(stacks)).toString('base64');

export const decodeFoldedStacks = (encoded: string): FoldedStacks =>
  parseFoldedText(inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8'));
