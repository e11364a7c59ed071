import { overTls, type Protocol } from '../tls/protocol.js';
import { type ConnectTimes } from './connection-costs.js';
import { type LatencyStats } from '../result.js';
import { type LoadMeasurement } from '../engine.js';

const fmt = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 1 });
const ms = (value: number) => (value >= 10 ? value.toFixed(1) : value.toFixed(2));
const percentiles = (latency: LatencyStats) => `p50 ${ms(latency.p50)} / p99 ${ms(latency.p99)} ms`;

/**
 * What opening connections cost a cell, in one line, where it matters (over TLS, or when connections are not kept
 * alive): how many, how often, how used, and the percentiles of each phase; without keep-alive over TLS, the
 * handshake's share of each request's time. Runs over kept-alive cleartext connections keep the numbers in JSON only.
 */
export function connectionCostNotes(
  measurement: Pick<LoadMeasurement, 'connects' | 'requests' | 'durationSeconds' | 'latency'>,
  run: { readonly protocol: Protocol; readonly keepAlive: boolean; readonly requestsPerConnection?: number | undefined },
): string[] {
  const connects: ConnectTimes | undefined = measurement.connects;
  const tls = overTls(run.protocol);
  if (!connects || connects.count === 0 || (!tls && run.keepAlive && run.requestsPerConnection === undefined)) return [];
  const phases = [
    `TCP connect ${percentiles(connects.latency)}`,
    ...(connects.handshake ? [`TLS handshake ${percentiles(connects.handshake.latency)}`] : []),
    ...(connects.firstByte ? [`first byte ${percentiles(connects.firstByte.latency)} from the connection's start`] : []),
  ];
  const each = fmt(measurement.requests / connects.count);
  const notes = [
    `connections: ${fmt(connects.count)} opened (${fmt(connects.count / measurement.durationSeconds)}/s, ${each} ${each === '1' ? 'answer' : 'answers'} each); ${phases.join('; ')}`,
  ];
  if (connects.handshake && !run.keepAlive) {
    const handshake = connects.handshake.latency.mean;
    const whole = connects.latency.mean + handshake + measurement.latency.mean;
    notes.push(
      `the TLS handshake took ${Math.round((handshake / whole) * 100)}% of each request's time (${ms(handshake)} ms of ${ms(whole)} ms on average: TCP connect, handshake, then the answer)`,
    );
  }
  return notes;
}
