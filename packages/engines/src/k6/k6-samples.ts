import { errors } from '@bench/core';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { FailureCounts, LatencyStats } from '@bench/core';
import { emptyFailures, SeriesRecorder } from '@bench/core';
import { createLatencyHistogram, recordMilliseconds, summarizeLatency, type LatencyHistogram } from '@bench/core';

/**
 * Every request of one run, read from the raw samples of each k6 instance (its CSV output): one
 * histogram, counts and bytes. Instances are merged by reading all their files into the same
 * tally, so a split run gives exactly what one generator seeing every request would.
 */
export interface K6Tally {
  readonly histogram: LatencyHistogram;
  requests: number;
  readonly statusCodes: Record<string, number>;
  non2xx: number;
  readonly failures: FailureCounts;
  /** k6 error codes seen (https://grafana.com/docs/k6/latest/javascript-api/error-codes/), with counts. */
  readonly errorCodes: Record<string, number>;
  bytesReceived: number;
  bodyBytes: number;
  bodyMismatches: number;
  /** Microseconds since the epoch: the first request's start and the last one's end. */
  firstStartUs: number;
  lastEndUs: number;
  /**
   * The run second by second, on k6's clock (epoch microseconds, as nanoseconds) from `originUs`:
   * every instance's samples land in the second they were stamped in, so split runs merge by absolute time.
   */
  series?: SeriesRecorder;
  /** Epoch microseconds where second 0 begins; absent: at the first sample read. */
  originUs?: number;
  /** The samples come in time order (readK6Csvs): each second's histogram is summarized and freed as the reading moves on. */
  readonly inOrder: boolean;
  /** A workload's steps, by name in its order: each sample tagged with a step's name counts there too. */
  readonly steps?: Map<string, K6Tally>;
  /** The connections k6 opened (a request whose http_req_connecting is not 0): TCP connect, TLS handshake, first byte. */
  readonly connections?: K6Connections;
  /** What each refusal of a workload's script says (k6Refusals), by its number less one. */
  readonly refusals: readonly string[];
  /** Requests the script did not send, by what it said of them. */
  readonly refused: Map<string, number>;
}

export interface K6Connections {
  count: number;
  readonly connect: LatencyHistogram;
  readonly handshake: LatencyHistogram;
  readonly firstByte: LatencyHistogram;
}

export function createK6Tally(
  originUs?: number,
  options: {
    readonly inOrder?: boolean;
    readonly steps?: readonly string[];
    readonly step?: boolean;
    /** A workload script's refusals' messages (k6Refusals). */
    readonly refusals?: readonly string[];
  } = {},
): K6Tally {
  const refusals = options.refusals ?? [];
  return {
    ...(options.steps
      ? {
          steps: new Map(
            options.steps.map((name) => [name, createK6Tally(originUs, { inOrder: options.inOrder ?? false, step: true, refusals })]),
          ),
        }
      : {}),
    ...(options.step
      ? {}
      : {
          connections: {
            count: 0,
            connect: createLatencyHistogram(),
            handshake: createLatencyHistogram(),
            firstByte: createLatencyHistogram(),
          },
        }),
    ...(originUs !== undefined ? { originUs } : {}),
    inOrder: options.inOrder ?? false,
    histogram: createLatencyHistogram(),
    requests: 0,
    statusCodes: {},
    non2xx: 0,
    failures: emptyFailures(),
    errorCodes: {},
    bytesReceived: 0,
    bodyBytes: 0,
    bodyMismatches: 0,
    firstStartUs: Number.POSITIVE_INFINITY,
    lastEndUs: 0,
    refusals,
    refused: new Map(),
  };
}

// k6's error codes in ab's failure buckets: dial errors fail to connect, a broken or reset connection fails to receive.
function countError(tally: K6Tally, code: string): keyof FailureCounts {
  tally.errorCodes[code] = (tally.errorCodes[code] ?? 0) + 1;
  const n = Number(code);
  if (n === 1050) {
    tally.failures.exceptions++;
    tally.failures.timeouts++;
    return 'timeouts';
  }
  const kind = n >= 1210 && n <= 1213 ? 'connect' : n === 1201 || n === 1202 || n === 1220 ? 'receive' : 'exceptions';
  tally.failures[kind]++;
  return kind;
}

// k6's timestamps (epoch microseconds) as the recorder's nanoseconds
const atNs = (us: number) => BigInt(Math.round(us)) * 1000n;

function seriesOf(tally: K6Tally, us: number): SeriesRecorder {
  tally.originUs ??= us;
  return (tally.series ??= new SeriesRecorder(atNs(tally.originUs), { live: tally.inOrder }));
}

/** The CSV columns bench asks for (--system-tags status,error_code,name); files of bench 0.x have no name. */
const COLUMNS = ['metric_name', 'timestamp', 'metric_value', 'error_code', 'name', 'status'];
const COLUMNS_WITHOUT_NAME = ['metric_name', 'timestamp', 'metric_value', 'error_code', 'status'];

/**
 * Where one file's reading is: a request's rows come together (a step's too), in k6's order: duration, blocked,
 * connecting, tls_handshaking, sending, waiting, receiving.
 */
interface FileState {
  readonly file: string;
  header: boolean;
  named: boolean;
  pendingDurationMs: number;
  blockedMs: number;
  connectingMs: number;
  sendingMs: number;
  readonly stepStates: Map<string, FileState>;
}

const fileState = (file: string): FileState => ({
  file,
  header: true,
  named: false,
  pendingDurationMs: 0,
  blockedMs: 0,
  connectingMs: 0,
  sendingMs: 0,
  stepStates: new Map(),
});

/** A request on a connection k6 opened for it: the connection's TCP connect, TLS handshake and first byte. */
function connectionSample(state: FileState, tally: K6Tally, metric: string, ms: number, timestamp: number): void {
  const connections = tally.connections;
  if (!connections) return;
  if (metric === 'http_req_connecting') {
    state.connectingMs = ms;
    if (ms > 0) {
      connections.count++;
      seriesOf(tally, timestamp).connection(atNs(timestamp));
      recordMilliseconds(connections.connect, ms);
    }
  } else if (metric === 'http_req_tls_handshaking' && ms > 0 && state.connectingMs > 0) {
    recordMilliseconds(connections.handshake, ms);
    seriesOf(tally, timestamp).handshake(Math.max(1, Math.round(ms * 1000)), atNs(timestamp));
  } else if (metric === 'http_req_sending') state.sendingMs = ms;
  // from the start of the request that opened the connection to its first byte
  else if (metric === 'http_req_waiting' && state.connectingMs > 0)
    recordMilliseconds(connections.firstByte, state.blockedMs + state.sendingMs + ms);
}

/**
 * One CSV line into the tally. A request's latency is http_req_blocked (getting a connection,
 * connect included) plus http_req_duration (sending, waiting, receiving): from the request's start
 * to its last byte, as ab and autocannon count it. k6 writes a request's samples together,
 * duration before blocked, all stamped with the request's end.
 */
function readLine(line: string, state: FileState, tally: K6Tally): void {
  if (state.header) {
    const header = line.split(',');
    state.named = COLUMNS.every((c, i) => header[i] === c);
    if (!state.named && !COLUMNS_WITHOUT_NAME.every((c, i) => header[i] === c))
      throw errors.generatorFailed(`${state.file} is not k6 CSV output with status and error_code tags`);
    state.header = false;
    return;
  }
  const fields = line.split(',', 6);
  const [metric, timestamp, value, errorCode] = fields;
  const name = state.named ? fields[4] : undefined;
  const status = state.named ? fields[5] : fields[4];
  applySample(state, tally, metric, timestamp, value, errorCode, status);
  const step = name !== undefined ? tally.steps?.get(name) : undefined;
  if (step) {
    step.originUs ??= tally.originUs;
    let stepState = state.stepStates.get(name!);
    if (!stepState) state.stepStates.set(name!, (stepState = fileState(state.file)));
    applySample(stepState, step, metric, timestamp, value, errorCode, status);
  }
}

/** One sample of a request (or of bench's own counters) into a tally. */
function applySample(
  state: FileState,
  tally: K6Tally,
  metric: string | undefined,
  timestamp: string | undefined,
  value: string | undefined,
  errorCode: string | undefined,
  status: string | undefined,
): void {
  switch (metric) {
    case 'http_reqs': {
      tally.requests++;
      // with an answer, k6's error code only restates its status (1404 for a 404): non-2xx, not a failure
      if (errorCode && (!status || status === '0'))
        seriesOf(tally, Number(timestamp)).failure(countError(tally, errorCode), atNs(Number(timestamp)));
      if (status && status !== '0') {
        tally.statusCodes[status] = (tally.statusCodes[status] ?? 0) + 1;
        if (!status.startsWith('2')) tally.non2xx++;
      }
      break;
    }
    case 'http_req_duration':
      state.pendingDurationMs = Number(value);
      break;
    case 'http_req_connecting':
    case 'http_req_tls_handshaking':
    case 'http_req_sending':
    case 'http_req_waiting':
      connectionSample(state, tally, metric, Number(value), Number(timestamp));
      break;
    case 'http_req_blocked': {
      state.blockedMs = Number(value);
      const ms = state.pendingDurationMs + Number(value);
      const endUs = Number(timestamp);
      tally.histogram.recordValue(Math.max(1, Math.round(ms * 1000)));
      tally.firstStartUs = Math.min(tally.firstStartUs, endUs - ms * 1000);
      tally.lastEndUs = Math.max(tally.lastEndUs, endUs);
      // an answer in its second with its latency; a request that got none counts there as the run's totals count it
      const series = seriesOf(tally, endUs - ms * 1000);
      if (status && status !== '0') series.response(ms * 1000, status.startsWith('2'), atNs(endUs));
      else series.count(1, 0, atNs(endUs));
      break;
    }
    case 'data_received':
      tally.bytesReceived += Number(value);
      break;
    case 'bench_body_bytes':
      tally.bodyBytes += Number(value);
      break;
    case 'bench_refused': {
      // a request the script did not send: a failed request, named by the refusal its value numbers
      const message = tally.refusals[Number(value) - 1] ?? `a request the script refused (${value})`;
      tally.refused.set(message, (tally.refused.get(message) ?? 0) + 1);
      tally.failures.exceptions++;
      seriesOf(tally, Number(timestamp)).failure('exceptions', atNs(Number(timestamp)));
      break;
    }
    case 'bench_body_mismatch':
      tally.bodyMismatches += Number(value);
      tally.failures.length += Number(value);
      for (let i = 0; i < Number(value); i++) seriesOf(tally, Number(timestamp)).failure('length', atNs(Number(timestamp)));
      break;
    default:
  }
}

const lineReader = (file: string) => createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });

/** One instance's samples into the tally. */
export async function readK6Csv(file: string, tally: K6Tally): Promise<void> {
  const state = fileState(file);
  for await (const line of lineReader(file)) readLine(line, state, tally);
  if (state.header) throw errors.generatorFailed(`${file} is empty: the k6 instance wrote no samples`);
}

/**
 * Every instance's samples into the tally, merged by time: the next line read is always the
 * earliest one waiting in any file (each file is in time order, as k6 writes it), so a tally made
 * with `inOrder` holds one second's histogram at a time rather than one per second of the run.
 */
export async function readK6Csvs(files: readonly string[], tally: K6Tally): Promise<void> {
  const readers = files.map((file) => {
    const stream = createReadStream(file, 'utf8');
    const input = createInterface({ input: stream, crlfDelay: Infinity });
    return { stream, input, lines: input[Symbol.asyncIterator](), state: fileState(file), next: undefined as string | undefined, at: 0 };
  });
  type Reader = (typeof readers)[number];
  const advance = async (reader: Reader) => {
    // readline's iterator is typed AsyncIterator<any>; its lines are strings
    const line: IteratorResult<string> = await reader.lines.next();
    reader.next = line.done ? undefined : line.value;
    reader.at = reader.next === undefined ? Number.POSITIVE_INFINITY : Number(reader.next.split(',', 2)[1]);
  };
  try {
    // each file's header first
    for (const reader of readers) {
      await advance(reader);
      if (reader.next === undefined) throw errors.generatorFailed(`${reader.state.file} is empty: the k6 instance wrote no samples`);
      readLine(reader.next, reader.state, tally);
      await advance(reader);
    }
    for (;;) {
      let earliest: Reader | undefined;
      for (const reader of readers) if (reader.next !== undefined && (!earliest || reader.at < earliest.at)) earliest = reader;
      if (!earliest?.next) return;
      readLine(earliest.next, earliest.state, tally);
      await advance(earliest);
    }
  } finally {
    for (const reader of readers) {
      reader.input.close();
      reader.stream.destroy();
    }
  }
}

export const k6Latency = (tally: K6Tally): LatencyStats => summarizeLatency(tally.histogram);

/** What the error codes mean, for the report's error samples. */
const ERROR_NAMES: Record<string, string> = {
  '1050': 'request timeout',
  '1210': 'dial error',
  '1211': 'dial timeout',
  '1212': 'connection refused',
  '1213': 'unknown dial error',
  '1201': 'broken pipe on write',
  '1202': 'broken pipe',
  '1220': 'connection reset by peer',
};

export function k6ErrorSamples(tally: K6Tally): string[] {
  return [
    ...Object.entries(tally.errorCodes).map(([code, n]) => `k6 error ${code}${ERROR_NAMES[code] ? ` (${ERROR_NAMES[code]})` : ''}: ${n}`),
    ...tally.refused.keys(),
  ];
}
