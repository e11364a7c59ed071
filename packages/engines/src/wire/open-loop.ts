import { createLatencyHistogram, encodeLatencyHistogram, summarizeLatency, type LoadPlan } from '@bench/core';
import { arrivalSchedule } from '../open-loop/arrival-schedule.js';
import type { ThreadMeasurement } from '../threads/merge-threads.js';
import type { ThreadSlot } from '../threads/serve-thread.js';
import type { ConnectionEvents, WireConnection } from './wire-connection.js';
import { WireRun } from './wire-run.js';

const toMicros = (ms: number) => Math.max(1, Math.round(ms * 1000));

/**
 * The open loop on the wire engine's connections: request i is due at start + i/R whatever the server does, waits for
 * a connection with room (its pipelining depth; up to -c connections), and is timed from when it was due
 * (coordinated omission corrected) and, beside that, from when it went out. Requests still waiting when the period
 * ends are dropped and counted; those in flight are answered or time out.
 */
export async function runOpenLoop(plan: LoadPlan, slot: ThreadSlot): Promise<ThreadMeasurement> {
  const run = new WireRun(plan, slot);
  const { shape } = plan;
  const rate = shape.rate ?? 1;
  const seconds = shape.durationSeconds ?? 10;
  const schedule = arrivalSchedule(rate, seconds, slot);
  // request j's due time, on performance.now()'s clock
  const dueAt = (j: number) => run.startMs + Number(schedule.atNs(j)) / 1e6;
  const periodEndMs = run.startMs + seconds * 1000;
  const periodEnd = run.startNs + BigInt(Math.round(seconds * 1e9));
  const uncorrected = createLatencyHistogram();
  const queue: number[] = [];
  // connections with room for another request
  const ready = new Set<WireConnection>();
  let opening = 0;
  let scheduled = 0;
  let closed = false;
  let aborted = false;
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));

  const inFlight = () => [...run.live].reduce((sum, c) => sum + c.inFlight, 0);
  const settle = () => {
    if (aborted || (closed && inFlight() === 0)) finish();
  };
  const dispatch = () => {
    while (queue.length > 0 && !aborted && !closed) {
      const [connection] = ready;
      if (!connection) {
        // as many new connections as the queue fills (those opening already count), up to -c
        const wanted = Math.ceil(queue.length / run.depth) - opening;
        for (let i = 0; i < wanted && run.live.size < shape.connections; i++) {
          opening++;
          run.open(events);
        }
        return;
      }
      connection.send(1, dueAt(queue.shift()!));
      if (connection.inFlight >= run.depth) ready.delete(connection);
    }
  };
  const events: ConnectionEvents = {
    connected(connection) {
      opening--;
      ready.add(connection);
      dispatch();
    },
    answered(connection, answer, sentMs, _intendedMs, nowMs) {
      uncorrected.recordValue(toMicros(nowMs - sentMs));
      if (answer.closes || !shape.keepAlive) connection.close();
      else ready.add(connection);
      dispatch();
      settle();
    },
    failed() {},
    ended(connection) {
      if (!connection.connected) opening--;
      ready.delete(connection);
      dispatch();
      settle();
    },
  };

  // release every request whose time has come, then sleep until the next one is due (timer resolution: 1 ms)
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = performance.now();
    while (scheduled < schedule.due && dueAt(scheduled) <= now) queue.push(scheduled++);
    dispatch();
    if (scheduled < schedule.due) timer = setTimeout(tick, Math.max(0, Math.floor(dueAt(scheduled) - now)));
  };
  const msUntil = (at: number) => Math.max(0, Math.floor(at - performance.now()));
  // the period ends once its last request fell due (a timer may fire up to a millisecond early)
  let closing: NodeJS.Timeout;
  const close = () => {
    tick();
    if (scheduled < schedule.due) {
      closing = setTimeout(close, 1);
      return;
    }
    closed = true;
    settle();
  };
  const abort = () => {
    aborted = true;
    finish();
  };
  plan.signal?.addEventListener('abort', abort, { once: true });
  if (plan.signal?.aborted) abort();
  timer = setTimeout(tick, msUntil(dueAt(0)));
  closing = setTimeout(close, msUntil(periodEndMs) + 1);
  try {
    await finished;
  } finally {
    if (timer) clearTimeout(timer);
    clearTimeout(closing);
    plan.signal?.removeEventListener('abort', abort);
  }
  const uncorrectedHistogram = encodeLatencyHistogram(uncorrected);
  const latencyUncorrected = summarizeLatency(uncorrected);
  uncorrected.destroy();
  const measurement = run.finish(periodEnd, seconds);
  return {
    ...measurement,
    latencyUncorrected,
    uncorrectedHistogram,
    rate: { target: rate, achieved: Math.round((measurement.requests / seconds) * 100) / 100 },
    droppedRequests: queue.length + (schedule.due - scheduled),
  };
}
