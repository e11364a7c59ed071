import { describe, expect, it } from 'vitest';
import { executionSegmentSequence, executionSegments, segmentFlags } from './segments.js';

describe('k6 execution segments', () => {
  it('split a run into n equal parts covering 0 to 1', () => {
    expect(executionSegments(1)).toEqual(['0:1']);
    expect(executionSegments(4)).toEqual(['0:1/4', '1/4:2/4', '2/4:3/4', '3/4:1']);
    expect(executionSegmentSequence(4)).toBe('0,1/4,2/4,3/4,1');
  });

  it('give each instance its part and the whole sequence, and a lone instance nothing', () => {
    expect(segmentFlags(0, 1)).toEqual([]);
    expect(segmentFlags(1, 2)).toEqual(['--execution-segment', '1/2:1', '--execution-segment-sequence', '0,1/2,1']);
  });
});
