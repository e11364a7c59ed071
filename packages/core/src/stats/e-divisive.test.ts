import { normal, seededRandom as seeded } from '../random/seeded-random.js';
import { describe, expect, it } from 'vitest';
import { detectChangePoints } from './e-divisive.js';

/** A series of `length` points around 1000 with `noise` relative sd; steps[i] = [index, relative change]. */
function series(seed: number, length: number, noise: number, steps: ReadonlyArray<readonly [number, number]> = []): number[] {
  const random = seeded(seed);
  return Array.from({ length }, (_, i) => {
    const level = steps.filter(([at]) => i >= at).reduce((l, [, change]) => l * (1 + change), 1000);
    return level * (1 + noise * normal(random));
  });
}

const SEEDS = Array.from({ length: 100 }, (_, i) => i + 1);

describe('E-Divisive means change points', () => {
  it('finds a single 5% step in 40 points at 2% noise, within two points, in at least 95% of seeds', () => {
    let found = 0;
    for (const seed of SEEDS) {
      const at = 12 + (seed % 17); // steps from index 12 to 28
      const points = detectChangePoints(series(seed, 40, 0.02, [[at, -0.05]]));
      if (points.some((p) => Math.abs(p.index - at) <= 2 && p.changePercent < 0)) found++;
    }
    expect(found).toBeGreaterThanOrEqual(95);
  });

  it('finds no change point in a stationary series of 50 points at 3% noise in at least 95% of seeds', () => {
    const quiet = SEEDS.filter((seed) => detectChangePoints(series(seed, 50, 0.03)).length === 0).length;
    expect(quiet).toBeGreaterThanOrEqual(95);
  });

  it('finds both of two steps', () => {
    let found = 0;
    for (const seed of SEEDS) {
      const points = detectChangePoints(
        series(seed, 60, 0.02, [
          [20, -0.05],
          [40, -0.05],
        ]),
      );
      if ([20, 40].every((at) => points.some((p) => Math.abs(p.index - at) <= 2 && p.changePercent < 0))) found++;
    }
    expect(found).toBeGreaterThanOrEqual(95);
  });

  it('finds a change that is undone later at both its ends', () => {
    let found = 0;
    for (const seed of SEEDS) {
      const points = detectChangePoints(
        series(seed, 60, 0.02, [
          [20, -0.05],
          [40, 1 / 0.95 - 1],
        ]),
      );
      if ([20, 40].every((at) => points.some((p) => Math.abs(p.index - at) <= 2))) found++;
    }
    expect(found).toBeGreaterThanOrEqual(95);
  });

  it('reports the size and direction of the change and is deterministic', () => {
    const values = [100, 101, 99, 100, 102, 100, 80, 81, 79, 80, 82, 80];
    const points = detectChangePoints(values);
    expect(points.map((p) => p.index)).toEqual([6]);
    expect(points[0]!.changePercent).toBeCloseTo(-19.9, 0);
    expect(points[0]!.pValue).toBeLessThan(0.001);
    expect(detectChangePoints(values)).toEqual(points);
  });

  it('needs enough points on each side', () => {
    expect(detectChangePoints([1, 2])).toEqual([]);
    expect(detectChangePoints([10, 10, 10, 20, 20, 20]).map((p) => p.index)).toEqual([3]);
  });
});
