import type { CellResult, HttpAnswer, ResourceSample, Scenario } from '@bench/core';
import { totalFailed } from './load/failures.js';
import type { LoadMeasurement } from './load/run-load.js';
import type { RunOptions } from './options.js';

export interface CellContext {
  readonly scenario: Scenario;
  readonly target: string;
  readonly concurrency: number;
  readonly repeat: number;
  readonly options: RunOptions;
  readonly url: string;
  readonly settings: Readonly<Record<string, string | number | boolean>>;
  readonly startedAt: string;
}

const zeroLatency = { mean: 0, stdev: 0, min: 0, p50: 0, p66: 0, p75: 0, p80: 0, p90: 0, p95: 0, p98: 0, p99: 0, p999: 0, max: 0 };

function base(context: CellContext) {
  const port = Number(new URL(context.url || 'http://127.0.0.1:0').port);
  return {
    scenario: context.scenario.name,
    target: context.target,
    concurrency: context.concurrency,
    repeat: context.repeat,
    keepAlive: context.options.keepAlive,
    bound:
      context.options.requests !== undefined
        ? { kind: 'requests' as const, value: context.options.requests }
        : { kind: 'duration' as const, value: context.options.durationSeconds ?? 0 },
    warmupSeconds: context.options.warmupSeconds,
    url: context.url ? context.url + context.scenario.path : '',
    settings: { ...context.settings },
    startedAt: context.startedAt,
    finishedAt: new Date().toISOString(),
    server: { software: '', hostname: '127.0.0.1', port },
    document: { path: context.scenario.path, length: context.scenario.expectedLength },
  };
}

/** A cell that could not be measured: every number is zero and `error` says why. */
export function failedCell(context: CellContext, error: string): CellResult {
  return {
    ...base(context),
    status: 'failed',
    error,
    durationSeconds: 0,
    requests: 0,
    rps: 0,
    latency: zeroLatency,
    failed: 0,
    failedBreakdown: { connect: 0, receive: 0, length: 0, exceptions: 0 },
    non2xx: 0,
    timeouts: 0,
    bytes: { total: 0, body: 0 },
    statusCodes: {},
    notes: [],
  };
}

export interface MeasuredCell {
  readonly measurement: LoadMeasurement;
  readonly answer?: HttpAnswer;
  readonly resources: { server?: ResourceSample; services?: ResourceSample; client?: ResourceSample };
  readonly backend?: CellResult['backend'];
  readonly notes: readonly string[];
}

export function measuredCell(context: CellContext, cell: MeasuredCell): CellResult {
  const { measurement: m } = cell;
  const failedBreakdown = {
    connect: m.failures.connect,
    receive: m.failures.receive,
    length: m.failures.length,
    exceptions: m.failures.exceptions,
  };
  const result = base(context);
  return {
    ...result,
    status: 'ok',
    server: { ...result.server, software: String(cell.answer?.headers.server ?? '') },
    durationSeconds: round(m.durationSeconds, 6),
    requests: m.requests,
    rps: round(m.requests / m.durationSeconds, 2),
    latency: m.latency,
    failed: totalFailed(failedBreakdown),
    failedBreakdown,
    non2xx: m.non2xx,
    timeouts: m.failures.timeouts,
    bytes: m.bytes,
    keepAliveRequests: m.keepAliveResponses,
    statusCodes: m.statusCodes,
    resources: cell.resources,
    ...(cell.backend ? { backend: cell.backend } : {}),
    notes: [...cell.notes],
  };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
