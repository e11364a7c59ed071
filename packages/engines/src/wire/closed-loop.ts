import type { FailureKind, LoadPlan } from '@bench/core';
import type { ThreadMeasurement } from '../threads/merge-threads.js';
import type { ThreadSlot } from '../threads/serve-thread.js';
import type { ParsedAnswer } from './response-parser.js';
import type { ConnectionEvents, WireConnection } from './wire-connection.js';
import { WireRun } from './wire-run.js';

// A connection refused is tried again after this long, not in a hot loop of refusals.
const RETRY_AFTER_REFUSAL_MS = 10;

/**
 * The closed loop's state and its connections' events. A class, not closures made per run: its methods are the same
 * functions run after run, so the code V8 optimized for one run still holds in the next.
 */
class ClosedLoop implements ConnectionEvents {
  /** Requests this thread may still start (each one answered or failed counts once). */
  private budget: number;
  private readonly byCount: boolean;
  private readonly perConnection: number;
  /** Connections asked for and not yet up: each will want a request of the budget. */
  private opening = 0;
  private stopped = false;
  /** When the last answer was read (performance.now()). */
  lastAnswerMs: number;
  private done: () => void = () => {};
  readonly finished = new Promise<void>((resolve) => (this.done = resolve));

  constructor(
    private readonly run: WireRun,
    shape: LoadPlan['shape'],
  ) {
    this.byCount = shape.requests !== undefined;
    this.budget = shape.requests ?? Number.POSITIVE_INFINITY;
    this.perConnection = run.perConnection;
    this.lastAnswerMs = run.startMs;
  }

  /** Opens the -c connections. */
  start(connections: number): void {
    for (let i = 0; i < connections && !this.stopped; i++) {
      this.opening++;
      this.run.open(this);
    }
  }

  readonly stop = (): void => {
    if (this.stopped) return;
    this.stopped = true;
    this.done();
  };

  connected(connection: WireConnection): void {
    this.opening--;
    if (!this.stopped) connection.send(this.take(Math.min(this.run.depth, this.perConnection)));
    this.settleCount();
  }

  answered(connection: WireConnection, answer: ParsedAnswer, _sentMs: number, _intendedMs: number, nowMs: number): void {
    this.lastAnswerMs = nowMs;
    if (this.stopped) return;
    if (answer.closes || connection.answers >= this.perConnection) {
      // the rest of its pipeline goes out again on the connection that replaces it
      this.budget += connection.inFlight;
      connection.close();
    } else {
      const room = Math.min(this.run.depth, this.perConnection - connection.answers) - connection.inFlight;
      // sent at the instant its answer was read: one clock read a request, as the answer's work before the write is
      // the client's (under a microsecond) and counts in the next request's time
      if (room > 0) connection.send(this.take(room), undefined, nowMs);
    }
    this.settleCount();
  }

  failed(_connection: WireConnection, kind: FailureKind): void {
    // a connect that failed had no request in flight: the attempt is the request that failed
    if (kind === 'connect') this.take(1);
  }

  ended(connection: WireConnection): void {
    const refused = !connection.connected;
    if (refused) this.opening--;
    if (this.stopped) return;
    // a new connection in its place, while the budget holds requests that the connections opening will not take
    if (!this.byCount || this.budget > this.opening) {
      this.opening++;
      if (refused) setTimeout(() => (this.stopped ? this.opening-- : this.run.open(this)), RETRY_AFTER_REFUSAL_MS);
      else this.run.open(this);
    }
    this.settleCount();
  }

  private take(wanted: number): number {
    const granted = Math.max(0, Math.min(wanted, this.budget));
    this.budget -= granted;
    return granted;
  }

  private settleCount(): void {
    if (this.byCount && this.budget === 0 && [...this.run.live].every((c) => c.inFlight === 0)) this.stop();
  }
}

/**
 * The closed loop: -c connections, each keeping its pipelining depth of requests in flight and sending the next as
 * soon as an answer arrives, for -d seconds (requests in flight at the end are not counted, as wrk and autocannon do)
 * or until -n requests were answered or failed. Without keep-alive, or past --requests-per-connection, a connection
 * is closed after its answers and a new one opened in its place.
 */
export async function runClosedLoop(plan: LoadPlan, slot: ThreadSlot): Promise<ThreadMeasurement> {
  const run = new WireRun(plan, slot);
  const { shape } = plan;
  const loop = new ClosedLoop(run, shape);
  const byCount = shape.requests !== undefined;
  const seconds = shape.durationSeconds ?? 0;
  const timer = byCount ? undefined : setTimeout(loop.stop, Math.round(seconds * 1000));
  plan.signal?.addEventListener('abort', loop.stop, { once: true });
  if (plan.signal?.aborted) loop.stop();
  loop.start(shape.connections);
  try {
    await loop.finished;
  } finally {
    if (timer) clearTimeout(timer);
    plan.signal?.removeEventListener('abort', loop.stop);
  }
  // -n ends at the last answer (as ab measures); -d at the end of its period, or where a stop (a settled warm-up) cut it
  const endNs = byCount ? run.nsAt(loop.lastAnswerMs) : run.periodEnd(seconds);
  return run.finish(endNs, Number(endNs - run.startNs) / 1e9);
}
