import type { Socket } from 'node:net';
import {
  createLatencyHistogram,
  encodeLatencyHistogram,
  mergeLatencyHistograms,
  recycleLatencyHistogram,
  summarizeLatency,
  type LatencyHistogram,
} from './latency.js';
import type { EncodedHistogram, LatencyStats } from '../result.js';
import type { SeriesRecorder } from './series.js';

/** One phase of opening connections, timed over every connection: its percentiles (ms) and its whole histogram. */
export interface TimedPhase {
  readonly latency: LatencyStats;
  readonly histogram: EncodedHistogram;
}

/**
 * What the connections of a run cost, when the engine times them: how many it opened, the TCP connect of each (its
 * `latency`), the TLS handshake after it, and the first byte of the first answer counted from the connection's start.
 */
export interface ConnectTimes extends TimedPhase {
  readonly count: number;
  readonly handshake?: TimedPhase;
  readonly firstByte?: TimedPhase;
}

/** A histogram's percentiles (ms) with the histogram itself, encoded. */
export const timedPhase = (histogram: LatencyHistogram): TimedPhase => ({
  latency: summarizeLatency(histogram),
  histogram: encodeLatencyHistogram(histogram),
});

const sinceUs = (startNs: bigint) => Math.max(1, Math.round(Number(process.hrtime.bigint() - startNs) / 1000));

/** Times the connections an in-process engine opens: TCP connect, TLS handshake, first byte. */
export class ConnectionTimer {
  private opened = 0;
  private readonly connect = createLatencyHistogram();
  private readonly handshake = createLatencyHistogram();
  private readonly firstByte = createLatencyHistogram();

  /** `series`: where each connection counts in the second its connect ended. */
  constructor(
    private readonly overTls: boolean,
    private readonly series?: Pick<SeriesRecorder, 'connection' | 'handshake'>,
  ) {}

  /** Watches a socket just created (before its connect): each phase is recorded as it ends. */
  watch(socket: Socket): void {
    const startNs = process.hrtime.bigint();
    let connectedNs = startNs;
    // a connection counts once it is up: one cut off before its connect ended was never opened
    socket.once('connect', () => {
      this.opened++;
      connectedNs = process.hrtime.bigint();
      this.connect.recordValue(sinceUs(startNs));
      this.series?.connection(connectedNs);
    });
    if (this.overTls)
      socket.once('secureConnect', () => {
        const us = sinceUs(connectedNs);
        this.handshake.recordValue(us);
        this.series?.handshake(us);
      });
    socket.once('data', () => this.firstByte.recordValue(sinceUs(startNs)));
  }

  /** The run's connection costs; the timer is spent. */
  finish(): ConnectTimes {
    const times: ConnectTimes = {
      count: this.opened,
      ...timedPhase(this.connect),
      ...(this.overTls ? { handshake: timedPhase(this.handshake) } : {}),
      firstByte: timedPhase(this.firstByte),
    };
    for (const histogram of [this.connect, this.handshake, this.firstByte]) recycleLatencyHistogram(histogram);
    return times;
  }
}

const mergedPhase = (phases: readonly TimedPhase[]): TimedPhase => {
  const histogram = mergeLatencyHistograms(phases.map((p) => p.histogram));
  const merged = timedPhase(histogram);
  recycleLatencyHistogram(histogram);
  return merged;
};

/** Several threads' (or generators') connection costs as one run's: counts added, histograms merged exactly. */
export function mergeConnectTimes(parts: readonly ConnectTimes[]): ConnectTimes {
  const all = <K extends 'handshake' | 'firstByte'>(key: K) =>
    parts.every((p) => p[key]) ? { [key]: mergedPhase(parts.map((p) => p[key]!)) } : {};
  return {
    count: parts.reduce((sum, p) => sum + p.count, 0),
    ...mergedPhase(parts),
    ...all('handshake'),
    ...all('firstByte'),
  };
}
