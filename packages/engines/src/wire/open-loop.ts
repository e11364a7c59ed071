import type { LoadPlan } from '@bench/core';
import { arrivalSchedule } from '../open-loop/arrival-schedule.js';
import { OpenLoopTiming } from '../open-loop/open-loop-timing.js';
import type { ThreadMeasurement } from '../threads/merge-threads.js';
import type { ThreadSlot } from '../threads/serve-thread.js';
import type { ParsedAnswer } from './response-parser.js';
import type { ConnectionEvents, WireConnection } from './wire-connection.js';
import { WireRun } from './wire-run.js';

/** After a refused connect, the wait before another is opened: the closed loop's and the native core's rule. */
const RETRY_AFTER_REFUSAL_MS = 10;

/**
 * The open loop's state and its connections' events. A class, not closures made per run: its methods are the same
 * functions run after run, so the code V8 optimized for one run still holds in the next.
 */
class OpenLoop implements ConnectionEvents {
  private readonly schedule: ReturnType<typeof arrivalSchedule>;
  readonly timing = new OpenLoopTiming();
  /** The next request to send, by its index in the schedule: those from it up to `scheduled` are due and waiting. */
  private nextToSend = 0;
  /** Connections with room for another request. */
  private readonly ready = new Set<WireConnection>();
  private opening = 0;
  private scheduled = 0;
  private closed = false;
  /** The last request fell due and the period is over: no connection opens any more (those opening may still connect). */
  private ending = false;
  private aborted = false;
  /** Connections refused less than RETRY_AFTER_REFUSAL_MS ago: their places open no connection until then. */
  private backingOff = 0;
  private timer: NodeJS.Timeout | undefined;
  private closing: NodeJS.Timeout | undefined;
  private done: () => void = () => {};
  readonly finished = new Promise<void>((resolve) => (this.done = resolve));

  constructor(
    private readonly run: WireRun,
    private readonly shape: LoadPlan['shape'],
    rate: number,
    private readonly seconds: number,
    slot: ThreadSlot,
  ) {
    this.schedule = arrivalSchedule(rate, seconds, slot);
  }

  /** Requests dropped: still waiting when the period ended, or never released. */
  get droppedRequests(): number {
    return this.schedule.due - this.nextToSend;
  }

  /** Starts the schedule and the period's end. */
  start(): void {
    this.timer = setTimeout(this.tick, this.msUntil(this.dueAt(0)));
    this.closing = setTimeout(this.close, this.msUntil(this.run.startMs + this.seconds * 1000) + 1);
  }

  /** Stops the timers once the loop is over. */
  stopTimers(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.closing) clearTimeout(this.closing);
  }

  readonly abort = (): void => {
    this.aborted = true;
    this.done();
  };

  connected(connection: WireConnection): void {
    this.opening--;
    if (this.hasRoom(connection)) this.ready.add(connection);
    this.dispatch();
  }

  answered(connection: WireConnection, answer: ParsedAnswer, sentMs: number, intendedMs: number, nowMs: number): void {
    this.timing.answered(intendedMs, sentMs, nowMs);
    if (answer.closes || !this.shape.keepAlive || connection.answers >= this.run.perConnection) {
      // the requests behind a close had their due times go by: they fail with the connection, as on the native core
      if (connection.inFlight > 0) connection.fail('receive', 'the server closed the connection with requests unanswered');
      else connection.close();
    } else if (this.hasRoom(connection)) this.ready.add(connection);
    // requests waiting go out at the instant of this read, as the closed loop's do
    this.dispatch(nowMs);
    this.settle();
  }

  failed(): void {}

  ended(connection: WireConnection): void {
    const refused = !connection.connected;
    if (refused) this.opening--;
    this.ready.delete(connection);
    if (refused) {
      this.backingOff++;
      setTimeout(() => {
        this.backingOff--;
        this.dispatch();
        this.settle();
      }, RETRY_AFTER_REFUSAL_MS);
    } else this.dispatch();
    this.settle();
  }

  /** Whether a connection may take another request: its pipeline's depth, and --requests-per-connection. */
  private hasRoom(connection: WireConnection): boolean {
    return connection.inFlight < this.run.depth && connection.answers + connection.inFlight < this.run.perConnection;
  }

  /** Request j's due time, on performance.now()'s clock. */
  private dueAt(j: number): number {
    return this.run.startMs + this.schedule.atMs(j);
  }

  private msUntil(at: number): number {
    return Math.max(0, Math.floor(at - performance.now()));
  }

  private inFlight(): number {
    let sum = 0;
    for (const connection of this.run.live) sum += connection.inFlight;
    return sum;
  }

  private settle(): void {
    if (this.aborted || (this.closed && this.inFlight() === 0)) this.done();
  }

  /** Sends waiting requests on connections with room, opening more up to -c; `nowMs`: the clock as the caller read it. */
  private dispatch(nowMs?: number): void {
    const { run, ready } = this;
    while (this.nextToSend < this.scheduled && !this.aborted && !this.closed) {
      const connection = ready.size > 0 ? ready.values().next().value : undefined;
      if (!connection) {
        // as many new connections as the waiting requests fill (those opening already count), up to -c
        const wanted = Math.ceil((this.scheduled - this.nextToSend) / run.depth) - this.opening;
        for (let i = 0; i < wanted && !this.ending && run.live.size + this.backingOff < this.shape.connections; i++) {
          this.opening++;
          run.open(this);
        }
        return;
      }
      connection.send(1, this.dueAt(this.nextToSend++), nowMs);
      if (!this.hasRoom(connection)) ready.delete(connection);
    }
  }

  // releases every request whose time has come, then sleeps until the next one is due (timer resolution: 1 ms)
  private readonly tick = (): void => {
    const now = performance.now();
    while (this.scheduled < this.schedule.due && this.dueAt(this.scheduled) <= now) this.scheduled++;
    this.dispatch(now);
    if (this.scheduled < this.schedule.due) this.timer = setTimeout(this.tick, Math.max(0, Math.floor(this.dueAt(this.scheduled) - now)));
  };

  // the period ends once its last request fell due (a timer may fire up to a millisecond early) and had its chance at a
  // connection: one free, or one opening for it then (none opens after: a refusing server cannot hold the end off); those
  // still waiting, which no connection of the -c could take, are dropped
  private readonly close = (): void => {
    this.tick();
    if (this.scheduled < this.schedule.due) {
      this.closing = setTimeout(this.close, 1);
      return;
    }
    this.ending = true;
    if (this.nextToSend < this.scheduled && this.opening > 0) {
      this.closing = setTimeout(this.close, 1);
      return;
    }
    this.closed = true;
    this.settle();
  };
}

/**
 * The open loop on the wire engine's connections: request i is due at start + i/R whatever the server does, waits for
 * a connection with room (its pipelining depth; up to -c connections), and is timed from when it was due
 * (coordinated omission corrected) and, beside that, from when it went out. Requests still waiting when the period
 * ends are dropped and counted; those in flight are answered or time out.
 */
export async function runOpenLoop(plan: LoadPlan, slot: ThreadSlot): Promise<ThreadMeasurement> {
  const run = new WireRun(plan, slot);
  const rate = plan.shape.rate ?? 1;
  const seconds = plan.shape.durationSeconds ?? 10;
  const loop = new OpenLoop(run, plan.shape, rate, seconds, slot);
  plan.signal?.addEventListener('abort', loop.abort, { once: true });
  if (plan.signal?.aborted) loop.abort();
  loop.start();
  try {
    await loop.finished;
  } finally {
    loop.stopTimers();
    plan.signal?.removeEventListener('abort', loop.abort);
  }
  return run.finishOpenLoop(loop.timing, rate, seconds, loop.droppedRequests);
}
