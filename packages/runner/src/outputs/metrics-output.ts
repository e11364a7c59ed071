import type { RunEvent } from '../run/run-events.js';
import { LiveMetrics } from './live-metrics.js';
import { SeriesSender, type WriteTally } from './series-sender.js';

/** The receivers a run can send its seconds to, by the name `--out NAME=URL` gives them. */
export const outputKinds = {
  prometheus: {
    // each encoder's libraries (protobuf and snappy; OpenTelemetry's) load only in a run that sends to such a receiver
    format: async () => (await import('./write-request.js')).remoteWriteFormat,
    what: 'the Prometheus receiver',
    hint: 'start it with remote write on (prometheus --web.enable-remote-write-receiver)',
  },
  otlp: {
    format: async () => (await import('./otlp-request.js')).otlpFormat,
    what: 'the OTLP receiver',
    hint: 'start an OpenTelemetry Collector with its otlp receiver on HTTP (port 4318)',
  },
} as const;
export type OutputKind = keyof typeof outputKinds;

/** A run's seconds sent to one receiver as it goes: Prometheus remote write or OTLP/HTTP. */
export class MetricsOutput {
  private readonly sender: SeriesSender;
  private readonly metrics: LiveMetrics;

  constructor(
    readonly kind: OutputKind,
    readonly url: string,
    headers: Readonly<Record<string, string>> = {},
    log: (line: string) => void = () => {},
  ) {
    this.sender = new SeriesSender(url, outputKinds[kind].format, headers, (line) => log(`${kind}: ${line}`));
    this.metrics = new LiveMetrics((series) => this.sender.push(series));
  }

  /** Why the receiver cannot be used, before any load; undefined when it answers. */
  probe(): Promise<string | undefined> {
    return this.sender.probe();
  }

  record(event: RunEvent): void {
    this.metrics.record(event);
  }

  /** Waits briefly for what is queued; what reached the receiver and what did not. */
  close(): Promise<WriteTally> {
    return this.sender.close();
  }
}
