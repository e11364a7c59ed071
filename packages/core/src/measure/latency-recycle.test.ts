import { describe, expect, it } from 'vitest';
import * as hdr from 'hdr-histogram-js';
import { createLatencyHistogram, encodeLatencyHistogram, recycleLatencyHistogram, summarizeLatency } from './latency.js';

const countsOf = (h: hdr.Histogram) => (h as unknown as { _counts: Uint32Array })._counts;
const fields = (h: hdr.Histogram) => ({
  totalCount: h.totalCount,
  maxValue: h.maxValue,
  minNonZeroValue: h.minNonZeroValue,
  startTimeStampMsec: h.startTimeStampMsec,
  endTimeStampMsec: h.endTimeStampMsec,
  tag: h.tag,
});
// a spread of values up to near the top (one hour): counts far apart, the last slots among them
const record = (h: hdr.Histogram) => [1, 7, 999, 262_143, 5_000_123, 3_599_999_999].forEach((us, i) => h.recordValueWithCount(us, i + 1));

describe('recycled latency histograms', () => {
  it('come back as a new one would be: no count left anywhere, fresh fields, the same figures and encoding after the same values', () => {
    const fresh = createLatencyHistogram();
    const freshFields = fields(fresh);
    const used = createLatencyHistogram();
    record(used);
    used.startTimeStampMsec = 5;
    used.tag = 'run';
    recycleLatencyHistogram(used);
    const again = createLatencyHistogram();
    expect(again).toBe(used);
    expect(fields(again)).toEqual(freshFields);
    expect(countsOf(again).some((count) => count !== 0)).toBe(false);
    record(again);
    record(fresh);
    expect(summarizeLatency(again)).toEqual(summarizeLatency(fresh));
    expect(encodeLatencyHistogram(again)).toEqual(encodeLatencyHistogram(fresh));
  });

  it('keep a histogram given back twice once, keep at most four, and take none they did not make', () => {
    const made = Array.from({ length: 6 }, () => createLatencyHistogram());
    recycleLatencyHistogram(made[0]!);
    recycleLatencyHistogram(made[0]!);
    for (const h of made.slice(1)) recycleLatencyHistogram(h);
    const foreign = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 5 });
    recycleLatencyHistogram(foreign);
    const handedOut = Array.from({ length: 5 }, () => createLatencyHistogram());
    // the first four given back kept (the same one counted once), handed out last first; then a new one
    // (compared by identity: a deep compare walks 2 million counts)
    expect(handedOut.slice(0, 4).map((h) => made.indexOf(h))).toEqual([3, 2, 1, 0]);
    expect(made.indexOf(handedOut[4]!)).toBe(-1);
    expect(handedOut[4] === foreign).toBe(false);
  });
});
