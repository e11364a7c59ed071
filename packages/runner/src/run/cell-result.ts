import {
  printableLine,
  totalFailed,
  type CellResult,
  type ConnectTimes,
  type HttpAnswer,
  type LoadMeasurement,
  type ResourceSample,
  type Scenario,
  type SecondPoint,
  type StepMeasurement,
  type StepResult,
  cellSeries,
} from '@bench/core';
import type { RunOptions } from '../options/declarations.js';
import type { RunProfiling } from '@bench/core';

export interface CellContext {
  readonly scenario: Scenario;
  readonly target: string;
  readonly concurrency: number;
  readonly repeat: number;
  readonly options: RunOptions;
  readonly url: string;
  readonly settings: Readonly<Record<string, string | number | boolean>>;
  readonly engine: { readonly name: string; readonly version: string; readonly chosenBecause?: string };
  /** The engine sees no body under load (h2load). */
  readonly bodiesUnchecked?: boolean;
  /** Over TLS, the engine checks no server certificate (wrk, ab, h2load). */
  readonly certificatesUnchecked?: boolean;
  readonly startedAt: string;
  /** The run's --profile, when asked. */
  readonly profiling?: RunProfiling;
  /** Over TLS: the run's CA, the only authority the engine trusts. */
  readonly caFile?: string;
  /** On several hosts (--server-host): this machine's name, where the stack and its services ran, and the link's measured rate. */
  readonly clientHost?: string;
  readonly hosts?: { readonly server: string; readonly services?: string };
  readonly link?: { readonly bytesPerSecond: number };
}

const zeroLatency = { mean: 0, stdev: 0, min: 0, p50: 0, p66: 0, p75: 0, p80: 0, p90: 0, p95: 0, p98: 0, p99: 0, p999: 0, max: 0 };

function base(context: CellContext, documentLength: number) {
  const port = Number(new URL(context.url || 'http://127.0.0.1:0').port);
  const { request } = context.scenario;
  const { options } = context;
  return {
    scenario: context.scenario.name,
    target: context.target,
    concurrency: context.concurrency,
    repeat: context.repeat,
    keepAlive: options.keepAlive,
    ...(options.protocol !== 'http1' ? { protocol: options.protocol } : {}),
    bound:
      options.requests !== undefined
        ? { kind: 'requests' as const, value: options.requests }
        : { kind: 'duration' as const, value: options.durationSeconds ?? 0 },
    warmupSeconds: options.warmupSeconds,
    url: context.url ? context.url + request.path : '',
    ...(request.method !== 'GET' ? { method: request.method } : {}),
    settings: { ...context.settings },
    engine: { ...context.engine },
    ...(options.cpus ? { cpus: { ...options.cpus } } : {}),
    ...(context.hosts ? { hosts: { ...context.hosts } } : {}),
    startedAt: context.startedAt,
    finishedAt: new Date().toISOString(),
    server: { software: '', hostname: new URL(context.url || 'http://127.0.0.1').hostname, port },
    document: { path: request.path, length: documentLength },
  };
}

/** A cell that could not be measured: every number is zero and `error` says why. */
export function failedCell(context: CellContext, error: string): CellResult {
  return {
    ...base(context, context.scenario.expect.body.kind === 'exact' ? context.scenario.expect.body.length : 0),
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
  /** What bounded the cell's throughput, when bench could tell. */
  readonly limit?: CellResult['limit'];
  /** The body length of an answer (expected, or as verified). */
  readonly documentLength: number;
  /** Warm-up and measured seconds, when the engine counts per second. */
  readonly series?: SecondPoint[];
}

/** The connections' costs as results keep them: percentiles, and their rate and use over the measured run. */
function connectsResult(connects: ConnectTimes, m: LoadMeasurement): NonNullable<CellResult['connects']> {
  return {
    count: connects.count,
    latency: connects.latency,
    ...(connects.handshake ? { handshake: connects.handshake.latency } : {}),
    ...(connects.firstByte ? { firstByte: connects.firstByte.latency } : {}),
    perSecond: round(connects.count / m.durationSeconds, 2),
    ...(connects.count > 0 ? { requestsPerConnection: round(m.requests / connects.count, 2) } : {}),
  };
}

export function measuredCell(context: CellContext, cell: MeasuredCell): CellResult {
  const { measurement: m } = cell;
  const failedBreakdown = {
    connect: m.failures.connect,
    receive: m.failures.receive,
    length: m.failures.length,
    exceptions: m.failures.exceptions,
  };
  const result = base(context, cell.documentLength);
  return {
    ...result,
    status: 'ok',
    server: { ...result.server, software: String(cell.answer?.headers.server ?? '') },
    ...(m.engineVariant ? { engine: { ...result.engine, version: `${result.engine.version} (${m.engineVariant})` } } : {}),
    durationSeconds: round(m.durationSeconds, 6),
    requests: m.requests,
    rps: round(m.requests / m.durationSeconds, 2),
    latency: m.latency,
    failed: totalFailed(failedBreakdown),
    failedBreakdown,
    non2xx: m.non2xx,
    timeouts: m.failures.timeouts,
    bytes: m.bytes,
    ...(m.keepAliveResponses !== undefined ? { keepAliveRequests: m.keepAliveResponses } : {}),
    statusCodes: m.statusCodes,
    resources: cell.resources,
    ...(cell.backend ? { backend: cell.backend } : {}),
    ...(m.rate ? { rate: m.rate } : {}),
    ...(m.droppedRequests !== undefined ? { droppedRequests: m.droppedRequests } : {}),
    ...(m.latencyUncorrected ? { latencyUncorrected: m.latencyUncorrected } : {}),
    ...(m.lateness ? { lateness: m.lateness } : {}),
    ...(m.connectionTimes ? { connectionTimes: m.connectionTimes } : {}),
    ...(m.connectionSetup ? { connectionSetup: m.connectionSetup } : {}),
    ...(m.connects ? { connects: connectsResult(m.connects, m) } : {}),
    ...(m.eventLoopDelay ? { eventLoopDelay: m.eventLoopDelay } : {}),
    ...(m.generators ? { generators: { ...m.generators, segments: [...m.generators.segments] } } : {}),
    ...(cell.series ? { series: cell.series } : {}),
    ...(m.histogram ? { histogram: m.histogram } : {}),
    ...(cell.limit ? { limit: cell.limit } : {}),
    ...(m.steps ? { steps: m.steps.map((step) => stepResult(step, m)) } : {}),
    ...(context.scenario.workload ? { workload: context.scenario.description } : {}),
    notes: [...cell.notes],
  };
}

/** A step's numbers as a cell keeps them: its rate over the cell's duration and its share of the cell's answers. */
function stepResult(step: StepMeasurement, m: LoadMeasurement): StepResult {
  const failedBreakdown = {
    connect: step.failures.connect,
    receive: step.failures.receive,
    length: step.failures.length,
    exceptions: step.failures.exceptions,
  };
  return {
    name: step.name,
    requests: step.requests,
    rps: round(step.requests / m.durationSeconds, 2),
    sharePercent: m.requests > 0 ? round((step.requests / m.requests) * 100, 2) : 0,
    latency: step.latency,
    failed: totalFailed(failedBreakdown),
    failedBreakdown,
    non2xx: step.non2xx,
    timeouts: step.failures.timeouts,
    statusCodes: step.statusCodes,
    errorSamples: [...step.errorSamples],
    histogram: step.histogram,
    ...(step.seconds ? { series: cellSeries({ seconds: step.seconds }) } : {}),
  };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * A cell as it is recorded: its error, notes and samples may quote what a server (or a stack's output) said, so every
 * control character in them is escaped; no terminal or log a report reaches runs a server's escape sequence.
 */
export function printableCell(cell: CellResult): CellResult {
  return {
    ...cell,
    ...(cell.error !== undefined ? { error: printableLine(cell.error) } : {}),
    notes: cell.notes.map(printableLine),
    ...(cell.steps ? { steps: cell.steps.map((step) => ({ ...step, errorSamples: step.errorSamples.map(printableLine) })) } : {}),
  };
}
