import type * as hdr from 'hdr-histogram-js';
import { slotLayout, slotOf, slotValue } from './hdr-slots.js';

// hdr-histogram-js finds a value's slot with Math.log2 and Math.pow (its values may pass 32 bits): about 100 ns a
// record here, twice per answer in a generator (the run's histogram and the second's). A counter finds the same
// slot with clz32 and a shift, counts it in a typed array, and hands the counts to the histogram when it is read.

// the histogram's own counting, below recordValue (its countsArrayIndex is the slot)
interface CountsBySlot {
  addToCountAtIndex(index: number, count: number): void;
  addToTotalCount(count: number): void;
  updateMinAndMax(value: number): void;
}

/**
 * Counts integer values into an HDR histogram's own slots (a value's slot is HdrHistogram's countsArrayIndex), so the
 * histogram read after flush() is the one that recording each value would have made. Values of `2 ** maxBits` and
 * more go to the histogram as they come.
 */
export class LatencyCounter {
  private counts: Uint32Array | undefined;
  private counted = 0;
  /** The least and the greatest value counted since the last flush: the histogram keeps both exactly. */
  private least = Number.POSITIVE_INFINITY;
  private greatest = -1;
  private readonly half: number;
  private readonly limit: number;

  constructor(
    readonly histogram: hdr.Histogram,
    maxBits: number,
  ) {
    const layout = slotLayout(histogram);
    if (!layout || maxBits > 31) throw new Error('a latency counter takes values below 2 ** 31 into a histogram discerning 1');
    this.half = layout.subBucketHalfCountMagnitude;
    this.limit = 2 ** maxBits;
  }

  /** One value, a non-negative integer. */
  record(value: number): void {
    if (value >= this.limit) {
      this.histogram.recordValue(value);
      return;
    }
    this.counts ??= new Uint32Array(this.slot(this.limit - 1) + 1);
    this.counts[this.slot(value)]!++;
    this.counted++;
    if (value < this.least) this.least = value;
    if (value > this.greatest) this.greatest = value;
  }

  /** The histogram, every value counted so far in it. */
  flush(): hdr.Histogram {
    const counts = this.counts;
    if (!counts || this.counted === 0) return this.histogram;
    // the least and the greatest are recorded as they were, so the histogram's min and max are theirs
    counts[this.slot(this.least)]!--;
    this.histogram.recordValue(this.least);
    if (this.counted > 1) {
      counts[this.slot(this.greatest)]!--;
      this.histogram.recordValue(this.greatest);
    }
    // the rest added slot by slot where the histogram counts them (no value worked out per slot); when the least was
    // 0, the lowest non-zero slot's value stands for the least non-zero value, as recording it would
    const into = this.histogram as unknown as CountsBySlot;
    let minPending = this.least === 0;
    let total = 0;
    for (let slot = 0; slot < counts.length; slot++) {
      const count = counts[slot]!;
      if (count === 0) continue;
      if (minPending && slot > 0) {
        into.updateMinAndMax(slotValue(slot, this.half));
        minPending = false;
      }
      into.addToCountAtIndex(slot, count);
      total += count;
    }
    into.addToTotalCount(total);
    counts.fill(0);
    this.counted = 0;
    this.least = Number.POSITIVE_INFINITY;
    this.greatest = -1;
    return this.histogram;
  }

  private slot(value: number): number {
    return slotOf(value, this.half);
  }
}
