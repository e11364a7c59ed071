import type { LoadMeasurement } from '../engine.js';
import { describe, expect, it } from 'vitest';
import { isSteady, warmInOneRun, warmUntilSteady } from './steady-warmup.js';

// Slices whose throughput follows `rps`, one fake second each.
function slices(rps: readonly number[]) {
  let clock = 0;
  let index = 0;
  const asked: number[] = [];
  return {
    asked,
    runner: {
      now: () => clock,
      slice: async (seconds: number) => {
        asked.push(seconds);
        clock += seconds * 1000;
        const requests = rps[Math.min(index++, rps.length - 1)] ?? 0;
        return { requests, durationSeconds: seconds } as LoadMeasurement;
      },
    },
  };
}

describe('warmUntilSteady', () => {
  it('goes on while throughput rises and stops when two seconds agree', async () => {
    const { runner, asked } = slices([100, 200, 300, 400, 405, 405]);
    const outcome = await warmUntilSteady(runner, 1, 30);
    expect(outcome).toMatchObject({ seconds: 5, reason: 'steady', rps: [100, 200, 300, 400, 405] });
    expect(asked).toEqual([1, 1, 1, 1, 1]);
  });

  it('keeps the minimum even when steady at once', async () => {
    const outcome = await warmUntilSteady(slices([400]).runner, 3, 30);
    expect(outcome).toMatchObject({ seconds: 3, reason: 'steady' });
  });

  it('stops at the cap when throughput never settles', async () => {
    const outcome = await warmUntilSteady(slices([100, 200, 100, 200, 100, 200, 100, 200]).runner, 1, 5);
    expect(outcome).toMatchObject({ seconds: 5, reason: 'cap' });
  });

  it('runs once for the minimum when the cap is no longer', async () => {
    const { runner, asked } = slices([100, 200]);
    expect(await warmUntilSteady(runner, 2, 2)).toMatchObject({ seconds: 2, reason: 'fixed' });
    expect(asked).toEqual([2]);
  });

  it('ends without an outcome when a slice did not finish', async () => {
    expect(await warmUntilSteady({ slice: async () => undefined }, 1, 5)).toBeUndefined();
  });

  it('calls throughputs within 5% steady, or within the counting noise of few answers', () => {
    expect(isSteady(4000, 4190, 4000)).toBe(true);
    expect(isSteady(4000, 4300, 4000)).toBe(false);
    expect(isSteady(0, 0, 0)).toBe(true);
    // 10 and 13 answers: within one standard deviation of counting
    expect(isSteady(10, 13, 10)).toBe(true);
    expect(isSteady(10, 20, 10)).toBe(false);
  });
});

describe('warmInOneRun', () => {
  // one run whose progress ticks each fake second with these answers, stopped when asked
  function oneRun(perSecond: readonly number[]) {
    let clock = 0;
    return {
      now: () => clock,
      run: async (seconds: number, onProgress: (p: { elapsedSeconds: number; requests: number }) => void, stop: AbortSignal) => {
        let requests = 0;
        let t = 0;
        while (t < seconds && !stop.aborted) {
          requests += perSecond[Math.min(t, perSecond.length - 1)] ?? 0;
          t++;
          clock = t * 1000;
          onProgress({ elapsedSeconds: t, requests });
        }
        return { requests, durationSeconds: t } as LoadMeasurement;
      },
    };
  }

  it('stops the run once two seconds agree', async () => {
    const outcome = await warmInOneRun(oneRun([1000, 2000, 3000, 4000, 4050, 4050]), 1, 30);
    expect(outcome).toMatchObject({ seconds: 5, reason: 'steady', rps: [1000, 2000, 3000, 4000, 4050] });
  });

  it('runs to the cap when throughput never settles', async () => {
    expect(await warmInOneRun(oneRun([1000, 2000, 1000, 2000, 1000, 2000, 1000, 2000]), 1, 6)).toMatchObject({ seconds: 6, reason: 'cap' });
  });
});
