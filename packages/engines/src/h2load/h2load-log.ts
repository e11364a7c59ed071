import {
  createLatencyHistogram,
  encodeLatencyHistogram,
  emptyFailures,
  SeriesRecorder,
  summarizeLatency,
  type LoadMeasurement,
} from '@bench/core';

/** What h2load's per-request log holds, read into bench's numbers: counts, statuses, the histogram and the seconds. */
export interface H2loadLog {
  readonly requests: number;
  readonly statusCodes: Record<string, number>;
  readonly non2xx: number;
  /** Streams h2load counted as failed (status -1). */
  readonly failedStreams: number;
  readonly firstStartUs: number;
  readonly lastEndUs: number;
  readonly measurement: Pick<LoadMeasurement, 'latency' | 'histogram' | 'seconds'>;
}

/**
 * Reads h2load's --log-file (tab-separated: start in µs since the epoch, status, µs until the end of the response; -1
 * for a failed stream). Each answered request is timed into bench's histogram (exact: every request is a line) and
 * counted in the second it ended, from the first request's start.
 */
export function readH2loadLog(text: string, clientCpu: readonly number[] = []): H2loadLog {
  const rows = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.split('\t').map(Number) as [number, number, number]);
  const firstStartUs = rows.reduce((min, [start]) => Math.min(min, start), Number.POSITIVE_INFINITY);
  const originNs = BigInt(Math.round(Number.isFinite(firstStartUs) ? firstStartUs : 0)) * 1000n;
  const series = new SeriesRecorder(originNs);
  const histogram = createLatencyHistogram();
  const statusCodes: Record<string, number> = {};
  let non2xx = 0;
  let failedStreams = 0;
  let lastEndUs = 0;
  const failures = emptyFailures();
  for (const [start, status, duration] of rows) {
    const endUs = start + duration;
    lastEndUs = Math.max(lastEndUs, endUs);
    const atNs = BigInt(Math.round(endUs)) * 1000n;
    if (status < 0) {
      failedStreams++;
      failures.exceptions++;
      series.failure('exceptions', atNs);
      continue;
    }
    statusCodes[status] = (statusCodes[status] ?? 0) + 1;
    const ok = status >= 200 && status < 300;
    if (!ok) non2xx++;
    histogram.recordValue(Math.max(1, Math.round(duration)));
    series.response(Math.max(1, duration), ok, atNs);
  }
  const latency = summarizeLatency(histogram);
  const encoded = encodeLatencyHistogram(histogram);
  histogram.destroy();
  return {
    requests: rows.length - failedStreams,
    statusCodes,
    non2xx,
    failedStreams,
    firstStartUs: Number.isFinite(firstStartUs) ? firstStartUs : 0,
    lastEndUs,
    measurement: { latency, histogram: encoded, seconds: series.finish(BigInt(Math.round(lastEndUs)) * 1000n, clientCpu) },
  };
}

/** One of h2load's summary rows ("time for connect:  123us  4.56ms  ..."): min, max, mean and sd, in ms. */
export function summaryRow(stdout: string, label: string): { min: number; max: number; mean: number; sd: number } | undefined {
  const line = stdout.split('\n').find((l) => l.startsWith(label));
  if (!line) return undefined;
  const ms = (text: string) => {
    const match = /^([\d.]+)(us|ms|s)$/.exec(text);
    if (!match) return Number.NaN;
    const value = Number(match[1]);
    return match[2] === 'us' ? value / 1000 : match[2] === 'ms' ? value : value * 1000;
  };
  const [min, max, mean, sd] = line
    .slice(line.indexOf(':') + 1)
    .trim()
    .split(/\s+/)
    .map(ms);
  if ([min, max, mean, sd].some((v) => v === undefined || Number.isNaN(v))) return undefined;
  return { min: min!, max: max!, mean: mean!, sd: sd! };
}

/** The traffic line's totals: all bytes received, and the bodies' ("traffic: 1.23MB (1290000) total, ... (240000) data"). */
export function trafficBytes(stdout: string): { total: number; body: number } {
  const line = stdout.split('\n').find((l) => l.startsWith('traffic:')) ?? '';
  const total = Number(/\((\d+)\) total/.exec(line)?.[1] ?? 0);
  const body = Number(/\((\d+)\) data/.exec(line)?.[1] ?? 0);
  return { total, body };
}
