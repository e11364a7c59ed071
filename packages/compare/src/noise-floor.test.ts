import { describe, expect, it } from 'vitest';
import type { RunDocument } from '@bench/core';
import { noiseFloor } from './noise-floor.js';

describe('the noise floor from A/A rounds', () => {
  it('reads the spread of the runs and of the per-round ratios from a run of one target twice', () => {
    const rps = [
      [1000, 1010],
      [1100, 1090],
      [950, 960],
      [1020, 1000],
    ];
    const doc = {
      results: rps.flatMap(([a, b], i) => [
        { scenario: 'hello', target: 'node#1', concurrency: 10, repeat: i + 1, status: 'ok', rps: a },
        { scenario: 'hello', target: 'node#2', concurrency: 10, repeat: i + 1, status: 'ok', rps: b },
      ]),
    } as unknown as RunDocument;
    const [floor] = noiseFloor(doc, { base: 'node#1', head: 'node#2' });
    expect(floor).toMatchObject({ scenario: 'hello', concurrency: 10, rounds: 4, runs: 8 });
    // the rounds drift (950 to 1100) far more than the two sides of a round differ: pairing sees the small spread
    expect(floor!.runCvPercent).toBeGreaterThan(4);
    expect(floor!.ratioSdPercent).toBeLessThan(2);
    expect(floor!.roundsToDetect.map((r) => r.changePercent)).toEqual([2, 5, 10]);
  });
});
