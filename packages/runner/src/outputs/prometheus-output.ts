import { mergeLiveSeconds, type CellResult, type LiveSecond, type MergedLiveSecond } from '@bench/core';
import type { RunEvent } from '../run/run-events.js';
import { RemoteWriter, type WriteTally } from './remote-writer.js';
import type { TimeSeries } from './write-request.js';

interface OpenCell {
  readonly labels: Record<string, string>;
  /** The wall-clock time of the measured run's second 0 (ms). */
  readonly startMs: number;
  /** Threads' shares of seconds not sent yet. */
  shares: LiveSecond[];
  /** Seconds already sent. */
  readonly sent: Set<number>;
}

/** One second of a cell as samples, each series named `bench_...` and labelled by run, scenario, target, concurrency, engine. */
function secondSeries(
  labels: Record<string, string>,
  timestampMs: number,
  s: Pick<MergedLiveSecond, 'non2xx' | 'failures' | 'latency'> & { readonly rps: number },
): TimeSeries[] {
  const one = (name: string, value: number, extra: Record<string, string> = {}): TimeSeries => ({
    labels: { __name__: name, ...labels, ...extra },
    samples: [{ value, timestampMs }],
  });
  const f = s.failures;
  return [
    one('bench_requests_per_second', s.rps),
    one('bench_failures', f.connect + f.receive + f.length + f.exceptions),
    one('bench_timeouts', f.timeouts),
    one('bench_non2xx', s.non2xx),
    ...(s.latency
      ? [
          one('bench_latency_ms', s.latency.p50, { quantile: '0.5' }),
          one('bench_latency_ms', s.latency.p90, { quantile: '0.9' }),
          one('bench_latency_ms', s.latency.p99, { quantile: '0.99' }),
          one('bench_latency_ms', s.latency.max, { quantile: '1' }),
        ]
      : []),
  ];
}

/**
 * Sends a run to Prometheus by remote write as it goes: each second of a measured run as it closes (rps, latency
 * percentiles, failures), and at the cell's end the seconds the engine handed over only then, with the server's
 * CPU and RSS and the generator's CPU second by second.
 */
export class PrometheusOutput {
  private readonly writer: RemoteWriter;
  private run = '';
  private engine = '';
  private cell: OpenCell | undefined;

  constructor(url: string) {
    this.writer = new RemoteWriter(url);
  }

  get url(): string {
    return this.writer.url;
  }

  /** Why the receiver cannot be used, before any load; undefined when it answers. */
  probe(): Promise<string | undefined> {
    return this.writer.probe();
  }

  record(event: RunEvent): void {
    if (event.type === 'plan') {
      this.run = event.runStartedAt;
      this.engine = event.engine;
    } else if (event.type === 'cell-start') {
      this.cell =
        event.phase === 'measure'
          ? {
              labels: {
                run: this.run,
                scenario: event.scenario,
                target: event.target,
                concurrency: String(event.concurrency),
                engine: this.engine,
              },
              startMs: Date.now(),
              shares: [],
              sent: new Set(),
            }
          : undefined;
    } else if (event.type === 'cell-progress' && this.cell && event.progress.seconds) {
      const cell = this.cell;
      cell.shares.push(...event.progress.seconds);
      // a second is whole once a later one has begun to arrive (the threads close each second together)
      const newest = Math.max(...cell.shares.map((s) => s.t));
      const ready = cell.shares.filter((s) => s.t < newest);
      cell.shares = cell.shares.filter((s) => s.t >= newest);
      this.send(cell, mergeLiveSeconds(ready));
    } else if (event.type === 'cell-end') {
      if (this.cell) this.endCell(this.cell, event.result);
      this.cell = undefined;
    }
  }

  /** Waits briefly for what is queued; what reached the receiver and what did not. */
  close(): Promise<WriteTally> {
    return this.writer.close();
  }

  private send(cell: OpenCell, seconds: readonly MergedLiveSecond[]): void {
    const series = seconds.flatMap((s) => {
      cell.sent.add(s.t);
      return secondSeries(cell.labels, cell.startMs + (s.t + 1) * 1000, { ...s, rps: s.requests });
    });
    if (series.length > 0) this.writer.push(series);
  }

  private endCell(cell: OpenCell, result: CellResult): void {
    this.send(cell, mergeLiveSeconds(cell.shares));
    const points = (result.series ?? []).filter((p) => p.phase === 'measure');
    const at = (t: number) => cell.startMs + (t + 1) * 1000;
    // the seconds the engine told only at the end (wrk, ab, k6, and the last of every engine)
    const late = points.filter((p) => !cell.sent.has(p.t)).flatMap((p) => secondSeries(cell.labels, at(p.t), p));
    const resources = points.flatMap((p) => [
      ...(p.server
        ? [
            { name: 'bench_server_cpu_percent', value: p.server.cpuPercent, t: p.t },
            { name: 'bench_server_rss_bytes', value: p.server.rssBytes, t: p.t },
          ]
        : []),
      ...(p.client ? [{ name: 'bench_generator_cpu_percent', value: p.client.cpuPercent, t: p.t }] : []),
    ]);
    const byName = new Map<string, { value: number; timestampMs: number }[]>();
    for (const r of resources) byName.set(r.name, [...(byName.get(r.name) ?? []), { value: r.value, timestampMs: at(r.t) }]);
    this.writer.push([...late, ...[...byName].map(([name, samples]) => ({ labels: { __name__: name, ...cell.labels }, samples }))]);
  }
}
