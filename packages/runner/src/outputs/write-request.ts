import protobuf from 'protobufjs';
import SnappyJS from 'snappyjs';
import type { MetricSeries } from './live-metrics.js';
import type { ReceiverFormat } from './series-sender.js';

// Prometheus's remote-write 1.0 message (prompb.WriteRequest): the fields a sender of samples fills.
const WriteRequest = protobuf.Root.fromJSON({
  nested: {
    prometheus: {
      nested: {
        WriteRequest: { fields: { timeseries: { rule: 'repeated', type: 'TimeSeries', id: 1 } } },
        TimeSeries: {
          fields: { labels: { rule: 'repeated', type: 'Label', id: 1 }, samples: { rule: 'repeated', type: 'Sample', id: 2 } },
        },
        Label: { fields: { name: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
        Sample: { fields: { value: { type: 'double', id: 1 }, timestamp: { type: 'int64', id: 2 } } },
      },
    },
  },
}).lookupType('prometheus.WriteRequest');

/** A remote-write request's body: the protobuf message, snappy-compressed (block format), labels sorted by name (`__name__` first). */
export function encodeWriteRequest(series: readonly MetricSeries[]): Uint8Array<ArrayBuffer> {
  const message = WriteRequest.fromObject({
    timeseries: series.map((s) => ({
      labels: Object.entries({ __name__: s.name, ...s.labels })
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, value]) => ({ name, value })),
      samples: s.samples.map((p) => ({ value: p.value, timestamp: p.timestampMs })),
    })),
  });
  return new Uint8Array(SnappyJS.compress(WriteRequest.encode(message).finish()));
}

/** Prometheus remote write 1.0. */
export const remoteWriteFormat: ReceiverFormat = {
  headers: { 'Content-Encoding': 'snappy', 'Content-Type': 'application/x-protobuf', 'X-Prometheus-Remote-Write-Version': '0.1.0' },
  encode: encodeWriteRequest,
};
