import protobuf from 'protobufjs';
import SnappyJS from 'snappyjs';

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

/** One time series: its labels (`__name__` among them) and its samples, oldest first. */
export interface TimeSeries {
  readonly labels: Readonly<Record<string, string>>;
  readonly samples: readonly { readonly value: number; readonly timestampMs: number }[];
}

/** A remote-write request's body: the protobuf message, snappy-compressed (block format), labels sorted by name. */
export function encodeWriteRequest(series: readonly TimeSeries[]): Uint8Array<ArrayBuffer> {
  const message = WriteRequest.fromObject({
    timeseries: series.map((s) => ({
      labels: Object.entries(s.labels)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, value]) => ({ name, value })),
      samples: s.samples.map((p) => ({ value: p.value, timestamp: p.timestampMs })),
    })),
  });
  return new Uint8Array(SnappyJS.compress(WriteRequest.encode(message).finish()));
}
