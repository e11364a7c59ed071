import { describe, expect, it } from 'vitest';
import type { LatencyStats } from '../result.js';
import { connectionCostNotes } from './connection-cost-note.js';

const latency = (mean: number): LatencyStats => ({
  mean,
  stdev: 0,
  min: mean,
  p50: mean,
  p66: mean,
  p75: mean,
  p80: mean,
  p90: mean,
  p95: mean,
  p98: mean,
  p99: mean,
  p999: mean,
  max: mean,
});
const phase = (mean: number) => ({
  latency: latency(mean),
  histogram: { encoding: 'hdr-compressed-base64' as const, unit: 'us' as const, data: '' },
});
const connects = { count: 100, ...phase(1), handshake: phase(3), firstByte: phase(6) };
const measured = { connects, requests: 100, durationSeconds: 2, latency: latency(4) };

describe('what opening connections cost, in a note', () => {
  it('names the count, rate, use and percentiles over TLS, and the handshake share without keep-alive', () => {
    const notes = connectionCostNotes(measured, { protocol: 'https', keepAlive: false });
    expect(notes[0]).toBe(
      "connections: 100 opened (50/s, 1 answer each); TCP connect p50 1.00 / p99 1.00 ms; TLS handshake p50 3.00 / p99 3.00 ms; first byte p50 6.00 / p99 6.00 ms from the connection's start",
    );
    // 3 ms of 1 + 3 + 4
    expect(notes[1]).toMatch(/^the TLS handshake took 38% of each request's time \(3\.00 ms of 8\.00 ms/);
  });

  it('stays out of reports over kept-alive cleartext connections, and gives no share with keep-alive', () => {
    expect(connectionCostNotes(measured, { protocol: 'http1', keepAlive: true })).toEqual([]);
    expect(connectionCostNotes(measured, { protocol: 'http1', keepAlive: true, requestsPerConnection: 10 })).toHaveLength(1);
    expect(connectionCostNotes({ ...measured, requests: 5000 }, { protocol: 'h2', keepAlive: true })).toEqual([
      expect.stringMatching(/^connections: 100 opened \(50\/s, 50 answers each\)/),
    ]);
  });
});
