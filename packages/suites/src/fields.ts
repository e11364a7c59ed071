import { errors, mean, median, type CellResult } from '@bench/core';

/** One figure of a measured cell, per repeat: a number, or text as ab prints it ("0/1/0.4/1/3"). */
type Field = (r: CellResult) => number | string | undefined;

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const timing = (t: { min: number; mean: number; sd: number; median: number; max: number } | undefined, full: boolean) =>
  t ? (full ? `${t.min}/${t.mean}/${t.sd}/${t.median}/${t.max}` : `${t.min}/${t.mean}/${t.max}`) : undefined;
const kib = (bytes: number) => Math.round(bytes / 1024);

/** Processes of the stack at its peak, grouped by name: "apache2 x9: 5,120-9,340 KiB". */
function processesAtPeak(r: CellResult, withRss: boolean): string | undefined {
  const atPeak = r.resources?.server?.atPeak;
  if (!atPeak || atPeak.length === 0) return undefined;
  const byName = new Map<string, number[]>();
  for (const p of atPeak) byName.set(p.name, [...(byName.get(p.name) ?? []), kib(p.rssBytes)]);
  return [...byName.entries()]
    .map(([name, sizes]) => {
      if (!withRss) return `${name} x${sizes.length}`;
      const [low, high] = [Math.min(...sizes), Math.max(...sizes)];
      return `${name} ${low === high ? low.toLocaleString('en-US') : `${low.toLocaleString('en-US')}-${high.toLocaleString('en-US')}`}${sizes.length > 1 ? ` (x${sizes.length})` : ''}`;
    })
    .join('; ');
}

/** The figures a suite table can show, by the names suite.json uses. */
export const resultFields: Readonly<Record<string, Field>> = {
  rps: (r) => r.rps,
  requests: (r) => r.requests,
  failed: (r) => r.failed,
  non2xx: (r) => r.non2xx,
  timeouts: (r) => r.timeouts,
  concurrency: (r) => r.concurrency,
  durationSeconds: (r) => round(r.durationSeconds, 3),
  documentLength: (r) => r.document.length,
  bytesTotal: (r) => r.bytes.total,
  bytesBody: (r) => r.bytes.body,
  transferRate: (r) => round(r.bytes.total / 1024 / r.durationSeconds, 2),
  // ab's two "Time per request" lines
  timePerRequest: (r) => (r.requests > 0 ? round((r.concurrency * r.durationSeconds * 1000) / r.requests, 3) : undefined),
  timePerRequestAll: (r) => (r.requests > 0 ? round((r.durationSeconds * 1000) / r.requests, 3) : undefined),
  mean: (r) => r.latency.mean,
  p50: (r) => r.latency.p50,
  p66: (r) => r.latency.p66,
  p75: (r) => r.latency.p75,
  p80: (r) => r.latency.p80,
  p90: (r) => r.latency.p90,
  p95: (r) => r.latency.p95,
  p98: (r) => r.latency.p98,
  p99: (r) => r.latency.p99,
  max: (r) => r.latency.max,
  connect: (r) => timing(r.connectionTimes?.connect, true),
  processing: (r) => timing(r.connectionTimes?.processing, true),
  waiting: (r) => timing(r.connectionTimes?.waiting, true),
  total: (r) => timing(r.connectionTimes?.total, true),
  connectMinMeanMax: (r) => timing(r.connectionTimes?.connect, false),
  processingMinMeanMax: (r) => timing(r.connectionTimes?.processing, false),
  totalMinMeanMax: (r) => timing(r.connectionTimes?.total, false),
  serverProcesses: (r) => processesAtPeak(r, false),
  serverRssEach: (r) => processesAtPeak(r, true),
  serverRssTotalKiB: (r) => (r.resources?.server ? kib(r.resources.server.rssBytes) : undefined),
};

/** A field over a cell's repeats: numbers combined (mean or median), text from the first repeat. */
export function fieldValue(name: string, repeats: readonly CellResult[], aggregate: 'mean' | 'median'): number | string | undefined {
  const field = resultFields[name];
  if (!field) throw errors.suiteInvalid(`suite field "${name}"`, `no such field; known: ${Object.keys(resultFields).join(', ')}`);
  const values = repeats.map(field).filter((v) => v !== undefined);
  if (values.length === 0) return undefined;
  if (values.every((v) => typeof v === 'number')) {
    const numbers = values;
    return aggregate === 'mean' ? mean(numbers) : median(numbers);
  }
  return values[0];
}
