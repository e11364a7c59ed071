import type { CellResult, MergedLiveSecond } from '@bench/core';
import type { RunEvent } from '../run/run-events.js';
import { clientThreadsOf } from '../options/client-threads.js';
import { SecondAssembler } from './second-assembler.js';

/** One series of an output: its name, its labels (attributes), and its samples, oldest first. */
export interface MetricSeries {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly samples: readonly { readonly value: number; readonly timestampMs: number }[];
}

/** Every metric an output sends, with its unit (OTLP's) and what it is. */
export const METRICS = {
  bench_requests_per_second: { unit: '1/s', description: 'answers in the second' },
  bench_latency_ms: { unit: 'ms', description: "the second's latency percentile (quantile) and maximum (quantile 1)" },
  bench_failures: { unit: '1', description: 'failed requests in the second: connect, receive, wrong body, exceptions' },
  bench_timeouts: { unit: '1', description: 'requests without an answer within --timeout, in the second' },
  bench_non2xx: { unit: '1', description: 'answers outside 2xx in the second' },
  bench_server_cpu_percent: { unit: '%', description: "the target's processes, percent of one core" },
  bench_server_rss_bytes: { unit: 'By', description: "the target's processes' resident memory" },
  bench_generator_cpu_percent: { unit: '%', description: 'the load generator, percent of one core' },
} as const;
export type MetricName = keyof typeof METRICS;

interface OpenCell {
  readonly labels: Record<string, string>;
  /** The wall-clock time of the measured run's second 0 (ms). */
  readonly startMs: number;
  readonly seconds: SecondAssembler;
}

type SecondValues = Pick<MergedLiveSecond, 'non2xx' | 'failures' | 'latency'> & { readonly rps: number };

/** One second of a cell as series, labelled by run, scenario, target, concurrency and engine. */
function secondSeries(labels: Record<string, string>, timestampMs: number, s: SecondValues): MetricSeries[] {
  const one = (name: MetricName, value: number, extra: Record<string, string> = {}): MetricSeries => ({
    name,
    labels: { ...labels, ...extra },
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
 * A run as per-second series, as it goes: each second of a measured run once every thread has told its share (rps,
 * latency percentiles, failures), a share that came after its second was sent under series of its own (`late`),
 * and at the cell's end the seconds the engine handed over only then, with the server's CPU and RSS and the
 * generator's CPU second by second. `send` gets each batch; the outputs encode them for their receivers.
 */
export class LiveMetrics {
  private run = '';
  private engine = '';
  private threads = 1;
  private cell: OpenCell | undefined;

  constructor(private readonly send: (series: MetricSeries[]) => void) {}

  record(event: RunEvent): void {
    if (event.type === 'plan') {
      this.run = event.runStartedAt;
      this.engine = event.engine;
      this.threads = clientThreadsOf(event.options);
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
              seconds: new SecondAssembler(Math.min(this.threads, event.concurrency)),
            }
          : undefined;
    } else if (event.type === 'cell-progress' && this.cell && event.progress.seconds) {
      const { whole, late } = this.cell.seconds.add(event.progress.seconds);
      this.sendSeconds(this.cell, whole);
      this.sendSeconds(this.cell, late, { late: 'true' });
    } else if (event.type === 'cell-end') {
      if (this.cell) this.endCell(this.cell, event.result);
      this.cell = undefined;
    }
  }

  private sendSeconds(cell: OpenCell, seconds: readonly MergedLiveSecond[], extra: Record<string, string> = {}): void {
    const labels = { ...cell.labels, ...extra };
    const series = seconds.flatMap((s) => secondSeries(labels, cell.startMs + (s.t + 1) * 1000, { ...s, rps: s.requests }));
    if (series.length > 0) this.send(series);
  }

  private endCell(cell: OpenCell, result: CellResult): void {
    const points = (result.series ?? []).filter((p) => p.phase === 'measure');
    // the seconds still held are told whole by the result (a thread's last shares come only with it); a cell without
    // a series sends what it has
    if (points.length === 0) this.sendSeconds(cell, cell.seconds.finish());
    const at = (t: number) => cell.startMs + (t + 1) * 1000;
    // the seconds not sent yet, as the result tells them, with those the engine told only at the end (wrk, ab, k6)
    const told = points.filter((p) => !cell.seconds.has(p.t)).flatMap((p) => secondSeries(cell.labels, at(p.t), p));
    const resources = points.flatMap((p) => [
      ...(p.server
        ? [
            { name: 'bench_server_cpu_percent' as const, value: p.server.cpuPercent, t: p.t },
            { name: 'bench_server_rss_bytes' as const, value: p.server.rssBytes, t: p.t },
          ]
        : []),
      ...(p.client ? [{ name: 'bench_generator_cpu_percent' as const, value: p.client.cpuPercent, t: p.t }] : []),
    ]);
    const byName = new Map<MetricName, { value: number; timestampMs: number }[]>();
    for (const r of resources) byName.set(r.name, [...(byName.get(r.name) ?? []), { value: r.value, timestampMs: at(r.t) }]);
    const series = [...told, ...[...byName].map(([name, samples]) => ({ name, labels: cell.labels, samples }))];
    if (series.length > 0) this.send(series);
  }
}
