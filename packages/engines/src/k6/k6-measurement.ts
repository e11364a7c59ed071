import { encodeLatencyHistogram, timedPhase, type ConnectTimes, type LoadMeasurement, type StepMeasurement } from '@bench/core';
import { k6ErrorSamples, k6Latency, type K6Connections, type K6Tally } from './k6-samples.js';

/** The flags every instance gets, locally and on k6-operator: raw samples to CSV with the two tags bench reads. */
export function k6OutputFlags(csvFile: string): string[] {
  return [
    '--no-usage-report',
    '--summary-mode=disabled',
    '--system-tags',
    // name: a workload's step (its requests are tagged with it)
    'status,error_code,name',
    '--out',
    `csv=fileName=${csvFile},timeFormat=unix_micro`,
  ];
}

/** A workload's steps, from their tallies, in the workload's order. */
function stepMeasurements(tally: K6Tally): StepMeasurement[] | undefined {
  if (!tally.steps) return undefined;
  return [...tally.steps].map(([name, step]) => ({
    name,
    requests: step.requests,
    latency: k6Latency(step),
    histogram: encodeLatencyHistogram(step.histogram),
    failures: step.failures,
    non2xx: step.non2xx,
    statusCodes: step.statusCodes,
    errorSamples: k6ErrorSamples(step),
    ...(step.series ? { seconds: step.series.finish(BigInt(Math.round(tally.lastEndUs)) * 1000n) } : {}),
  }));
}

/** The connections the samples show k6 opening; over TLS each has a handshake. */
function connectTimes(connections: K6Connections | undefined): ConnectTimes | undefined {
  if (!connections || connections.count === 0) return undefined;
  return {
    count: connections.count,
    ...timedPhase(connections.connect),
    ...(connections.handshake.totalCount > 0 ? { handshake: timedPhase(connections.handshake) } : {}),
    firstByte: timedPhase(connections.firstByte),
  };
}

/** The measurement from the samples of every instance of one run (and their CPU per second, when sampled here). */
export function k6Measurement(tally: K6Tally, clientCpuPerSecond: readonly number[] = []): LoadMeasurement {
  const spanUs = tally.lastEndUs > tally.firstStartUs ? tally.lastEndUs - tally.firstStartUs : 0;
  const seconds = tally.series?.finish(BigInt(Math.round(tally.lastEndUs)) * 1000n, clientCpuPerSecond);
  const steps = stepMeasurements(tally);
  const connects = connectTimes(tally.connections);
  return {
    ...(connects ? { connects } : {}),
    ...(steps ? { steps } : {}),
    ...(seconds ? { seconds } : {}),
    histogram: encodeLatencyHistogram(tally.histogram),
    durationSeconds: Math.max(spanUs / 1e6, 1e-6),
    requests: tally.requests,
    latency: k6Latency(tally),
    failures: tally.failures,
    non2xx: tally.non2xx,
    statusCodes: tally.statusCodes,
    bytes: { total: tally.bytesReceived, body: tally.bodyBytes },
    errorSamples: k6ErrorSamples(tally),
  };
}
