import { describe, expect, it } from 'vitest';
import type { CellResult, LiveSecond } from '@bench/core';
import type { RunEvent } from '../run/run-events.js';
import { LiveMetrics, type MetricSeries } from './live-metrics.js';

const share = (t: number, requests: number): LiveSecond => ({
  t,
  requests,
  non2xx: 0,
  failures: { connect: 0, receive: 0, length: 0, exceptions: 0, timeouts: 0 },
});

/** What a run of one cell on two client threads sends, given its threads' shares in this order. */
function sent(shares: readonly LiveSecond[], series: CellResult['series'] = []): MetricSeries[] {
  const out: MetricSeries[] = [];
  const metrics = new LiveMetrics((batch) => out.push(...batch));
  const events = [
    { type: 'plan', runStartedAt: 'r', engine: 'autocannon', options: { clientThreads: 2 } },
    { type: 'cell-start', phase: 'measure', scenario: 's', target: 't', concurrency: 4 },
    ...shares.map((s) => ({ type: 'cell-progress', progress: { elapsedSeconds: s.t, requests: 0, seconds: [s] } })),
    { type: 'cell-end', result: { series } },
  ] as unknown as RunEvent[];
  for (const event of events) metrics.record(event);
  return out.filter((s) => s.name === 'bench_requests_per_second');
}

const key = (s: MetricSeries) => `${JSON.stringify(s.labels)} ${s.samples[0]?.timestampMs}`;

describe('the seconds an output sends', () => {
  it('sends a second once, when both threads have told their share, whatever order the shares come in', () => {
    const series = sent([share(0, 10), share(1, 11), share(0, 20), share(2, 12), share(1, 21), share(2, 22)]);
    expect(series.map((s) => s.samples[0]?.value)).toEqual([30, 32, 34]);
    expect(new Set(series.map(key)).size).toBe(series.length);
  });

  it("sends a share that comes after its second was sent under series of its own, never again under the second's", () => {
    // one thread's shares only, until the other's share of second 0 comes two seconds late
    const series = sent([share(0, 10), share(1, 11), share(2, 12), share(0, 20)]);
    const late = series.filter((s) => s.labels['late'] === 'true');
    expect(late.map((s) => s.samples[0]?.value)).toEqual([20]);
    // (seconds 1 and 2 are sent at the end: this cell's result has no series)
    expect(series.filter((s) => s.labels['late'] === undefined).map((s) => s.samples[0]?.value)).toEqual([10, 11, 12]);
    expect(new Set(series.map(key)).size).toBe(series.length);
  });

  it('sends the seconds still held at the end as the result tells them, whole', () => {
    const point = (t: number, rps: number) => ({
      t,
      phase: 'measure',
      seconds: 1,
      requests: rps,
      rps,
      non2xx: 0,
      failures: share(t, 0).failures,
    });
    const series = sent([share(0, 10), share(0, 20), share(1, 11)], [point(0, 30), point(1, 33)] as CellResult['series']);
    expect(series.map((s) => s.samples[0]?.value)).toEqual([30, 33]);
  });
});
