import { describe, expect, it } from 'vitest';
import { SeriesRecorder } from './series.js';

const S = 1_000_000_000n;
const start = 5n * S; // any process.hrtime.bigint() reading
const at = (seconds: number) => start + BigInt(Math.round(seconds * 1e9));

describe('SeriesRecorder', () => {
  it("buckets answers by the second they arrived in, with that second's counts and percentiles", () => {
    const series = new SeriesRecorder(start);
    // second 0: 100 answers of 1..100 ms, 10 of them non-2xx; second 2: 3 answers
    for (let i = 1; i <= 100; i++) series.response(i * 1000, i > 10, at(0.005 * i));
    for (const ms of [7, 8, 9]) series.response(ms * 1000, true, at(2.5));
    const seconds = series.finish(at(3));
    expect(seconds.map((s) => [s.t, s.requests, s.non2xx])).toEqual([
      [0, 100, 10],
      [1, 0, 0],
      [2, 3, 0],
    ]);
    // a second's percentiles are kept to 3 significant digits (within 0.1%)
    const within = (actual: number | undefined, expected: number) =>
      expect(Math.abs((actual ?? 0) - expected)).toBeLessThanOrEqual(expected / 1000);
    for (const [second, expected] of [
      [0, { p50: 50, p90: 90, p99: 99, max: 100 }],
      [2, { p50: 8, p90: 9, p99: 9, max: 9 }],
    ] as const) {
      const latency = seconds[second]?.latency;
      for (const key of ['p50', 'p90', 'p99', 'max'] as const) within(latency?.[key], expected[key]);
    }
    // a second without answers has no latency rather than zeros
    expect(seconds[1]?.latency).toBeUndefined();
    expect(seconds.every((s) => s.seconds === 1)).toBe(true);
  });

  it('keeps the seconds in which nothing was answered (a stalled server) as points with no requests', () => {
    const series = new SeriesRecorder(start);
    for (const t of [0.2, 0.9, 1.1, 1.99, 4.0, 4.5, 5.9]) series.response(1000, true, at(t));
    const seconds = series.finish(at(6));
    expect(seconds.map((s) => s.requests)).toEqual([2, 2, 0, 0, 2, 1]);
  });

  it('counts answers without a latency, and failures by kind (a timeout is also an exception)', () => {
    const series = new SeriesRecorder(start);
    series.count(40, 4, at(0.5));
    series.count(10, 0, at(0.7));
    series.failure('connect', at(0.1));
    series.failure('timeouts', at(1.2));
    series.failure('length', at(1.3));
    const [first, second] = series.finish(at(2));
    expect(first).toMatchObject({ requests: 50, non2xx: 4, failures: { connect: 1, receive: 0, length: 0, exceptions: 0, timeouts: 0 } });
    expect(first?.latency).toBeUndefined();
    expect(second).toMatchObject({ requests: 0, failures: { connect: 0, receive: 0, length: 1, exceptions: 1, timeouts: 1 } });
  });

  it('gives the last second the part of it the run covered, and drops a sliver in which nothing happened', () => {
    const partial = new SeriesRecorder(start);
    partial.response(1000, true, at(0.5));
    partial.response(1000, true, at(1.1));
    expect(partial.finish(at(1.25)).map((s) => s.seconds)).toEqual([1, 0.25]);

    const sliver = new SeriesRecorder(start);
    sliver.response(1000, true, at(0.5));
    sliver.response(1000, true, at(1.5));
    expect(sliver.finish(at(2.05)).map((s) => s.t)).toEqual([0, 1]);

    // a run that ends early still has its seconds up to the end, answered or not
    const quiet = new SeriesRecorder(start);
    quiet.response(1000, true, at(0.1));
    expect(quiet.finish(at(3)).map((s) => s.requests)).toEqual([1, 0, 0]);
  });

  it("puts the generator's CPU on the second it was measured in", () => {
    const series = new SeriesRecorder(start);
    series.response(1000, true, at(0.5));
    series.response(1000, true, at(1.5));
    series.response(1000, true, at(2.5));
    const seconds = series.finish(at(3), [12.5, 40]);
    expect(seconds.map((s) => s.clientCpuPercent)).toEqual([12.5, 40, undefined]);
    expect('clientCpuPercent' in seconds[2]!).toBe(false);
  });

  it('starts over at restart(), and counts anything stamped before the start in second 0', () => {
    const series = new SeriesRecorder(start);
    series.response(1000, true, at(0.5));
    const later = at(10);
    series.restart(later);
    series.response(2000, true, later - 1000n);
    series.response(3000, true, later + S / 2n);
    const seconds = series.finish(later + S);
    expect(seconds).toHaveLength(1);
    expect(seconds[0]).toMatchObject({ t: 0, requests: 2, latency: { p50: 2, max: 3 } });
  });

  it("live: summarizes and frees a second's histogram three seconds on: a later answer stamped in it is counted, its latency left out", () => {
    const series = new SeriesRecorder(start, { live: true });
    series.response(5000, true, at(0.5));
    series.response(6000, true, at(3.5)); // second 0 is summarized here
    series.response(900_000, true, at(0.9)); // reported late
    const [first] = series.finish(at(4));
    expect(first?.requests).toBe(2);
    expect(first?.latency?.max).toBe(5);
  });

  it('gives one point, not none, for a run shorter than a second', () => {
    const series = new SeriesRecorder(start);
    series.response(1500, true, at(0.1));
    expect(series.finish(at(0.3))).toEqual([
      {
        t: 0,
        seconds: 0.3,
        requests: 1,
        non2xx: 0,
        failures: { connect: 0, receive: 0, length: 0, exceptions: 0, timeouts: 0 },
        latency: { p50: 1.5, p90: 1.5, p99: 1.5, max: 1.5 },
      },
    ]);
  });

  it('live: hands over each second once it has closed, with its counts and whole histogram, and each only once', () => {
    const series = new SeriesRecorder(start, { live: true });
    series.response(5000, true, at(0.2));
    series.response(7000, false, at(0.7));
    series.failure('timeouts', at(1.5));
    expect(series.takeClosed(at(0.9))).toEqual([]);
    const [zero, ...rest] = series.takeClosed(at(1.6));
    expect(rest).toEqual([]);
    expect(zero).toMatchObject({ t: 0, requests: 2, non2xx: 1, failures: { timeouts: 0 } });
    expect(zero?.histogram?.encoding).toBe('hdr-compressed-base64');
    const one = series.takeClosed(at(2.1));
    expect(one).toMatchObject([{ t: 1, requests: 0, failures: { timeouts: 1, exceptions: 1 } }]);
    expect(one[0]?.histogram).toBeUndefined();
    expect(series.takeClosed(at(2.5))).toEqual([]);
  });
});
