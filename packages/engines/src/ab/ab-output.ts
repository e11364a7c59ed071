import type { ConnectionTimes, TimingSummary } from '@bench/core';

/** What ab prints after a run, as numbers. */
export interface AbBlock {
  readonly timeTakenSeconds: number;
  /** The body length of the first answer, which ab compares every other with. */
  readonly documentLength: number;
  readonly complete: number;
  readonly failed: { readonly connect: number; readonly receive: number; readonly length: number; readonly exceptions: number };
  readonly writeErrors: number;
  readonly non2xx: number;
  readonly keepAlive: number;
  readonly totalBytes: number;
  readonly htmlBytes: number;
  readonly connectionTimes?: ConnectionTimes;
}

const number = (text: string, label: string): number | undefined => {
  const match = new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(text);
  return match ? Number(match[1]) : undefined;
};

function timing(text: string, label: string): TimingSummary | undefined {
  const match = new RegExp(`^${label}:\\s+(\\d+)\\s+(\\d+)\\s+([\\d.]+)\\s+(\\d+)\\s+(\\d+)`, 'm').exec(text);
  if (!match) return undefined;
  const [min, mean, sd, median, max] = match.slice(1).map(Number) as [number, number, number, number, number];
  return { min, mean, sd, median, max };
}

/** Parses ab 2.3's report (stdout); undefined when there is none (ab stopped before reporting). */
export function parseAbOutput(text: string): AbBlock | undefined {
  const complete = number(text, 'Complete requests');
  const timeTakenSeconds = number(text, 'Time taken for tests');
  if (complete === undefined || timeTakenSeconds === undefined) return undefined;
  const breakdown = /\(Connect: (\d+), Receive: (\d+), Length: (\d+), Exceptions: (\d+)\)/.exec(text);
  const [connect, receive, length, exceptions] = breakdown ? breakdown.slice(1).map(Number) : [0, 0, 0, 0];
  const times = ['Connect', 'Processing', 'Waiting', 'Total'].map((label) => timing(text, label));
  const [c, p, w, t] = times;
  return {
    timeTakenSeconds,
    documentLength: number(text, 'Document Length') ?? 0,
    complete,
    failed: { connect: connect ?? 0, receive: receive ?? 0, length: length ?? 0, exceptions: exceptions ?? 0 },
    writeErrors: number(text, 'Write errors') ?? 0,
    non2xx: number(text, 'Non-2xx responses') ?? 0,
    keepAlive: number(text, 'Keep-Alive requests') ?? 0,
    totalBytes: number(text, 'Total transferred') ?? 0,
    htmlBytes: number(text, 'HTML transferred') ?? 0,
    ...(c && p && w && t ? { connectionTimes: { connect: c, processing: p, waiting: w, total: t } } : {}),
  };
}

/** One request of ab's -g file: the whole epoch second it started in, and its total time (ms). */
export interface AbRecord {
  readonly startSecond: number;
  readonly totalMs: number;
}

/**
 * ab's -g file: a header, then one tab-separated line per request (starttime as text, its epoch
 * second, ctime, dtime, ttime, wait; times in whole milliseconds). Calls `each` for every request.
 */
export function forEachAbRecord(text: string, each: (record: AbRecord) => void): void {
  for (const line of text.split('\n').slice(1)) {
    const fields = line.split('\t');
    if (fields.length >= 6) each({ startSecond: Number(fields[1]), totalMs: Number(fields[4]) });
  }
}
