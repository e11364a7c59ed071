import type { LoadPlan } from '@bench/core';
import type { ThreadMeasurement } from '../threads/merge-threads.js';
import type { ThreadSlot } from '../threads/serve-thread.js';
import type { ConnectionEvents } from './wire-connection.js';
import { WireRun } from './wire-run.js';

// A connection refused is tried again after this long, not in a hot loop of refusals.
const RETRY_AFTER_REFUSAL_MS = 10;

/**
 * The closed loop: -c connections, each keeping its pipelining depth of requests in flight and sending the next as
 * soon as an answer arrives, for -d seconds (requests in flight at the end are not counted, as wrk and autocannon do)
 * or until -n requests were answered or failed. Without keep-alive, or past --requests-per-connection, a connection
 * is closed after its answers and a new one opened in its place.
 */
export async function runClosedLoop(plan: LoadPlan, slot: ThreadSlot): Promise<ThreadMeasurement> {
  const run = new WireRun(plan, slot);
  const { shape } = plan;
  const byCount = shape.requests !== undefined;
  // requests this thread may still start (each one answered or failed counts once)
  let budget = shape.requests ?? Number.POSITIVE_INFINITY;
  const perConnection = shape.keepAlive ? (shape.requestsPerConnection ?? Number.POSITIVE_INFINITY) : 1;
  let stopped = false;
  // connections asked for and not yet up: each will want a request of the budget
  let opening = 0;
  let lastAnswerNs = run.startNs;
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));

  const take = (wanted: number) => {
    const granted = Math.max(0, Math.min(wanted, budget));
    budget -= granted;
    return granted;
  };
  const settleCount = () => {
    if (byCount && budget === 0 && [...run.live].every((c) => c.inFlight === 0)) stop();
  };
  const events: ConnectionEvents = {
    connected(connection) {
      opening--;
      if (!stopped) connection.send(take(Math.min(run.depth, perConnection)));
      settleCount();
    },
    answered(connection, answer, _sentMs, _intendedMs, _nowMs, nowNs) {
      lastAnswerNs = nowNs;
      if (stopped) return;
      if (answer.closes || connection.answers >= perConnection) {
        // the rest of its pipeline goes out again on the connection that replaces it
        budget += connection.inFlight;
        connection.close();
      } else {
        const room = Math.min(run.depth, perConnection - connection.answers) - connection.inFlight;
        if (room > 0) connection.send(take(room));
      }
      settleCount();
    },
    failed(_connection, kind) {
      // a connect that failed had no request in flight: the attempt is the request that failed
      if (kind === 'connect') take(1);
    },
    ended(connection) {
      const refused = !connection.connected;
      if (refused) opening--;
      if (stopped) return;
      // a new connection in its place, while the budget holds requests that the connections opening will not take
      if (!byCount || budget > opening) {
        opening++;
        if (refused) setTimeout(() => (stopped ? opening-- : run.open(events)), RETRY_AFTER_REFUSAL_MS);
        else run.open(events);
      }
      settleCount();
    },
  };
  const stop = () => {
    if (stopped) return;
    stopped = true;
    finish();
  };

  const durationNs = BigInt(Math.round((shape.durationSeconds ?? 0) * 1e9));
  const timer = byCount ? undefined : setTimeout(stop, Number(durationNs / 1_000_000n));
  plan.signal?.addEventListener('abort', stop, { once: true });
  if (plan.signal?.aborted) stop();
  for (let i = 0; i < shape.connections && !stopped; i++) {
    opening++;
    run.open(events);
  }
  try {
    await finished;
  } finally {
    if (timer) clearTimeout(timer);
    plan.signal?.removeEventListener('abort', stop);
  }
  // -n ends at the last answer (as ab measures); -d at the end of its period
  const endNs = byCount ? lastAnswerNs : run.startNs + durationNs;
  return run.finish(endNs, Number(endNs - run.startNs) / 1e9);
}
