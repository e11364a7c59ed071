// Where HdrHistogram keeps a value, for histograms discerning 1 (unit magnitude 0), with integer arithmetic: its
// countsArrayIndex, and the values a slot stands for. hdr-histogram-js works these out with Math.log2 and Math.pow.

/** What a histogram's layout says of its slots. */
export interface SlotLayout {
  readonly subBucketHalfCountMagnitude: number;
  readonly unitMagnitude: number;
}

/** The histogram's layout when its slots can be read with integer arithmetic (it discerns 1), else undefined. */
export function slotLayout(histogram: unknown): SlotLayout | undefined {
  const layout = histogram as Partial<SlotLayout>;
  return layout.unitMagnitude === 0 && typeof layout.subBucketHalfCountMagnitude === 'number' ? (layout as SlotLayout) : undefined;
}

/** log2 of how many values the slot stands for. */
export const slotShift = (slot: number, half: number): number => (slot < 2 << half ? 0 : (slot >>> half) - 1);

/** The lowest value the slot stands for. */
export const slotValue = (slot: number, half: number): number => {
  const shift = slotShift(slot, half);
  return (slot - (shift << half)) * 2 ** shift;
};

/** The slot of a non-negative integer below 2 ** 31. */
export const slotOf = (value: number, half: number): number => {
  const shift = Math.max(0, 31 - Math.clz32(value) - half);
  return (shift << half) + (value >>> shift);
};
