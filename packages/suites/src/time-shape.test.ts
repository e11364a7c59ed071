import { describe, expect, it } from 'vitest';
import { findSuite } from './suite-registry.js';
import { planRunShape, TIME_SHAPE_CAP_SECONDS, TIME_SHAPE_FLOOR_SECONDS } from './time-shape.js';

const runOf = (suite: string, id: string) => {
  const found = findSuite(suite);
  const run = found.definition.runs.find((r) => r.id === id)!;
  return { suite: found, run };
};

describe('the article time shape of a suite run', () => {
  it('runs an article whose 1,000 requests took 3.3 s for at least that long at scale 1, by time, not by count', () => {
    const { suite, run } = runOf('php-sapi-centos5', 'modes');
    const { options, shape } = planRunShape(suite, run, 1);
    expect(shape).toMatchObject({ kind: 'time', requests: 1000, articleSeconds: 3.281 });
    expect(options.durationSeconds).toBeGreaterThanOrEqual(3.3);
    expect(options.durationSeconds).toBe(TIME_SHAPE_FLOOR_SECONDS);
    expect(shape.line).toMatch(/the article's 1,000 requests took 3\.281-25\.211 s/);
  });

  it('keeps an article time between the floor and the cap, and caps a longer one', () => {
    const { suite, run } = runOf('linuxfab-2000', 'table-9x9');
    const { options, shape } = planRunShape(suite, run, 1);
    expect(shape.articleSeconds).toBeCloseTo(173.879);
    expect(options.durationSeconds).toBe(TIME_SHAPE_CAP_SECONDS);
    expect(shape.line).toMatch(/capped at 60 s/);
  });

  it('takes the floor when the article published no time, and scales it', () => {
    const { suite, run } = runOf('computerra-2002', 'part1');
    expect(planRunShape(suite, run, 1).options.durationSeconds).toBe(TIME_SHAPE_FLOOR_SECONDS);
    expect(planRunShape(suite, run, 0.2).options.durationSeconds).toBe(1);
    expect(planRunShape(suite, run, 0.01).options.durationSeconds).toBe(0.5);
  });

  it('leaves a run the article bounded by time as it was', () => {
    const { suite, run } = runOf('node-php-2011', 'php');
    expect(planRunShape(suite, run, 1)).toMatchObject({ options: {}, shape: { kind: 'duration', seconds: 30 } });
  });
});
