import { ProtobufMetricsSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AggregationTemporality, DataPointType, type GaugeMetricData, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { ValueType, type HrTime } from '@opentelemetry/api';
import { TOOL_VERSION } from '../version.js';
import { METRICS, type MetricName, type MetricSeries } from './live-metrics.js';
import type { ReceiverFormat } from './series-sender.js';

const resource = resourceFromAttributes({ 'service.name': 'bench', 'service.version': TOOL_VERSION });
const hrTime = (ms: number): HrTime => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

/**
 * An OTLP ExportMetricsServiceRequest of these series, protobuf-encoded by OpenTelemetry's own serializer: each
 * metric a gauge, each sample a data point over the second it describes, the labels its attributes.
 */
export function encodeOtlpRequest(series: readonly MetricSeries[]): Uint8Array<ArrayBuffer> {
  const byName = new Map<string, MetricSeries[]>();
  for (const s of series) byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
  const metrics = [...byName].map(([name, all]): GaugeMetricData => ({
    descriptor: { name, valueType: ValueType.DOUBLE, ...METRICS[name as MetricName] },
    aggregationTemporality: AggregationTemporality.CUMULATIVE,
    dataPointType: DataPointType.GAUGE,
    dataPoints: all.flatMap((s) =>
      s.samples.map((p) => ({
        startTime: hrTime(p.timestampMs - 1000),
        endTime: hrTime(p.timestampMs),
        attributes: s.labels,
        value: p.value,
      })),
    ),
  }));
  const request: ResourceMetrics = { resource, scopeMetrics: [{ scope: { name: '@bench/runner', version: TOOL_VERSION }, metrics }] };
  const body = ProtobufMetricsSerializer.serializeRequest(request);
  if (!body) throw new Error('the OTLP serializer returned nothing');
  return new Uint8Array(body);
}

/** OTLP/HTTP with protobuf bodies. */
export const otlpFormat: ReceiverFormat = {
  headers: { 'Content-Type': 'application/x-protobuf' },
  encode: encodeOtlpRequest,
  refusedIn(answer) {
    const partial = answer.length > 0 ? ProtobufMetricsSerializer.deserializeResponse(answer).partialSuccess : undefined;
    const refused = Number(partial?.rejectedDataPoints ?? 0);
    return refused > 0 ? { samples: refused, message: partial?.errorMessage ?? 'refused' } : undefined;
  },
};
