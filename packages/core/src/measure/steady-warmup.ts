import type { EngineSecond } from './series.js';
import type { LoadMeasurement, LoadProgress } from '../engine.js';
import type { ResourceSecond } from './resource-sampler.js';
import type { SampledRun } from './cell-series.js';

/** Two warm-up seconds whose throughput differs by at most this share of the larger are steady. */
export const STEADY_TOLERANCE = 0.05;
/** Each warm-up slice: one second of load, as the series counts. */
export const WARMUP_SLICE_SECONDS = 1;

export type WarmupReason = 'steady' | 'cap' | 'fixed';

export interface WarmupOutcome {
  readonly seconds: number;
  readonly reason: WarmupReason;
  /** Each slice's requests per second, in order. */
  readonly rps: readonly number[];
  /** The warm-up's seconds and the server's, as one run (each slice's seconds in turn). */
  readonly sampled?: SampledRun;
}

const rpsOf = (m: LoadMeasurement) => (m.durationSeconds > 0 ? m.requests / m.durationSeconds : 0);

/**
 * Whether two slices' throughputs agree: within the tolerance, or within the counting noise of so few answers
 * (two counts of n differ by sqrt(2n) at one standard deviation: php-cgi's 10 answers a second never agree
 * within 5%, however steady). A stack answering nothing is steady too.
 */
export function isSteady(previous: number, last: number, answers = Infinity, tolerance = STEADY_TOLERANCE): boolean {
  const larger = Math.max(previous, last);
  const noise = answers > 0 ? Math.sqrt(2 / answers) : 1;
  return larger === 0 || Math.abs(previous - last) <= Math.max(tolerance, noise) * larger;
}

export interface WarmupRunner {
  /** One slice of load of this many seconds; undefined when the stack died or the run was stopped. */
  readonly slice: (seconds: number) => Promise<LoadMeasurement | undefined>;
  /** The server's seconds from a slice's start (the resource sampler, running over the whole warm-up). */
  readonly serverFrom?: (startedAtNs: bigint) => readonly ResourceSecond[] | undefined;
  readonly now?: () => number;
}

/**
 * Warms a stack up until it is steady: one-second slices of the cell's own load (so process pools grow to
 * what it needs and a JIT compiles its paths) until at least `minimumSeconds` passed and the last two slices'
 * throughput agree, or `capSeconds` passed. A cap no longer than the minimum is a fixed warm-up of one run.
 * Undefined when a slice did not finish.
 */
export async function warmUntilSteady(
  runner: WarmupRunner,
  minimumSeconds: number,
  capSeconds: number,
): Promise<WarmupOutcome | undefined> {
  const now = runner.now ?? Date.now;
  const started = now();
  const fixed = capSeconds <= minimumSeconds;
  const slices: LoadMeasurement[] = [];
  const server: ResourceSecond[] = [];
  const seconds: EngineSecond[] = [];
  let reason: WarmupReason = 'fixed';
  for (;;) {
    const measurement = await runner.slice(fixed ? minimumSeconds : WARMUP_SLICE_SECONDS);
    if (!measurement) return undefined;
    slices.push(measurement);
    // the slices' seconds as one run: renumbered in turn, each with the server's second of the same moment
    const sliceServer = measurement.startedAtNs !== undefined ? runner.serverFrom?.(measurement.startedAtNs) : undefined;
    for (const second of measurement.seconds ?? []) {
      const sample = sliceServer?.[second.t];
      if (sample) server[seconds.length] = sample;
      seconds.push({ ...second, t: seconds.length });
    }
    if (fixed) break;
    const elapsed = (now() - started) / 1000;
    const pair = slices.slice(-2);
    const [previous, last] = pair.map(rpsOf);
    const answers = Math.min(...pair.map((m) => m.requests));
    if (elapsed >= minimumSeconds && previous !== undefined && last !== undefined && isSteady(previous, last, answers)) {
      reason = 'steady';
      break;
    }
    if (elapsed + WARMUP_SLICE_SECONDS > capSeconds) {
      reason = 'cap';
      break;
    }
  }
  return {
    seconds: Math.round((now() - started) / 100) / 10,
    reason,
    rps: slices.map((m) => Math.round(rpsOf(m) * 100) / 100),
    ...(seconds.length > 0 ? { sampled: { seconds, ...(server.length > 0 ? { server } : {}) } } : {}),
  };
}

export interface OneRunWarmup {
  /** One run of at most `seconds` reporting its answers so far; `stop` ends it early with its measurement. Undefined when it did not finish. */
  readonly run: (seconds: number, onProgress: (progress: LoadProgress) => void, stop: AbortSignal) => Promise<LoadMeasurement | undefined>;
  readonly serverFrom?: (startedAtNs: bigint) => readonly ResourceSecond[] | undefined;
  readonly now?: () => number;
}

/**
 * The same warm-up as one engine run, for engines whose progress counts answers (autocannon, the open loop):
 * each progress tick (about a second) is a slice, and the run is stopped when two agree. No generator start
 * between slices (an autocannon worker thread takes about a second to start on a loaded machine).
 */
export async function warmInOneRun(runner: OneRunWarmup, minimumSeconds: number, capSeconds: number): Promise<WarmupOutcome | undefined> {
  const now = runner.now ?? Date.now;
  const started = now();
  const stop = new AbortController();
  let last: LoadProgress = { elapsedSeconds: 0, requests: 0 };
  const rps: number[] = [];
  const answers: number[] = [];
  let reason: WarmupReason = 'cap';
  const onProgress = (progress: LoadProgress) => {
    const seconds = progress.elapsedSeconds - last.elapsedSeconds;
    if (seconds < 0.5 || stop.signal.aborted) return;
    answers.push(progress.requests - last.requests);
    rps.push((progress.requests - last.requests) / seconds);
    last = progress;
    const [previous, latest] = rps.slice(-2);
    if (progress.elapsedSeconds < minimumSeconds || previous === undefined || latest === undefined) return;
    if (isSteady(previous, latest, Math.min(...answers.slice(-2)))) {
      reason = 'steady';
      stop.abort();
    }
  };
  const measurement = await runner.run(capSeconds, onProgress, stop.signal);
  if (!measurement) return undefined;
  const server = measurement.startedAtNs !== undefined ? runner.serverFrom?.(measurement.startedAtNs) : undefined;
  return {
    seconds: Math.round((now() - started) / 100) / 10,
    reason,
    rps: rps.map((r) => Math.round(r * 100) / 100),
    ...(measurement.seconds ? { sampled: { seconds: measurement.seconds, ...(server ? { server } : {}) } } : {}),
  };
}
