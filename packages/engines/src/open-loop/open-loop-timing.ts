import { createLatencyHistogram, encodeLatencyHistogram, recycleLatencyHistogram, summarizeLatency } from '@bench/core/load-thread';

const toMicros = (ms: number) => Math.max(1, Math.round(ms * 1000));

/**
 * What an open loop times beside each answer's latency from its due time: the latency from its send (uncorrected) and
 * how late the send was (from due to sent), each in a histogram that threads merge exactly.
 */
export class OpenLoopTiming {
  readonly uncorrected = createLatencyHistogram();
  private readonly late = createLatencyHistogram();

  /** An answer to a request due at `dueMs`, sent at `sentMs` and read at `readMs` (one clock, milliseconds). */
  answered(dueMs: number, sentMs: number, readMs: number): void {
    this.uncorrected.recordValue(toMicros(readMs - sentMs));
    this.late.recordValue(toMicros(sentMs - dueMs));
  }

  /** An answer the native core timed: `fromDueUs` microseconds from its due time, `fromSendUs` from its send. */
  answeredAfter(fromDueUs: number, fromSendUs: number): void {
    this.uncorrected.recordValue(Math.max(1, Math.round(fromSendUs)));
    this.late.recordValue(Math.max(1, Math.round(fromDueUs - fromSendUs)));
  }

  /** The summaries and the encoded histograms, the histograms given back. */
  finish() {
    const summary = {
      latencyUncorrected: summarizeLatency(this.uncorrected),
      uncorrectedHistogram: encodeLatencyHistogram(this.uncorrected),
      lateness: summarizeLatency(this.late),
      latenessHistogram: encodeLatencyHistogram(this.late),
    };
    recycleLatencyHistogram(this.uncorrected);
    recycleLatencyHistogram(this.late);
    return summary;
  }
}
