import { Client, type Dispatcher } from 'undici';
import {
  bodyBytesCheck,
  createLatencyHistogram,
  encodeLatencyHistogram,
  summarizeLatency,
  watchGeneratorHealth,
  type LoadPlan,
} from '@bench/core';
import type { ThreadMeasurement } from '../threads/merge-threads.js';
import type { ThreadSlot } from '../threads/serve-thread.js';
import { RunTally } from '../threads/run-tally.js';
import { arrivalSchedule } from './arrival-schedule.js';
import { classifyUndiciError } from './undici-errors.js';

const toMicros = (ns: bigint) => Math.max(1, Number(ns / 1000n));

/**
 * An open loop: request i is due at start + i/R, whatever the server does. Due requests wait in a
 * queue for a free connection (up to -c connections); latency counts from the intended send time
 * (coordinated omission corrected, as wrk2 and k6's constant-arrival-rate executor do) and, beside
 * it, from the actual send. A request still waiting for a connection when the period ends is
 * dropped (k6's dropped iterations) and counted; requests in flight then are answered (or time out).
 */
export async function runOpenLoop(plan: LoadPlan, slot: ThreadSlot): Promise<ThreadMeasurement> {
  const { shape, request } = plan;
  const rate = shape.rate ?? 1;
  const seconds = shape.durationSeconds ?? 10;
  // this thread's requests fall between the other threads' (see arrivalSchedule)
  const schedule = arrivalSchedule(rate, seconds, slot);
  const due = schedule.due;
  const url = new URL(plan.url);
  const check = bodyBytesCheck(plan.expect);
  // the tally's latency is from the intended send time; beside it, from the actual send
  const uncorrected = createLatencyHistogram();
  let inFlight = 0;

  const connections: Client[] = [];
  const idle: Client[] = [];
  const queue: number[] = [];
  let scheduled = 0;
  const start = slot.startAtNs;
  const dueAt = (j: number) => start + schedule.atNs(j);
  const tally = new RunTally(start, slot.rawSamples);
  // answers to requests still in flight when the period ends count in its last second
  const periodEnd = start + BigInt(Math.round(seconds * 1e9));
  const inPeriod = (at: bigint) => (at < periodEnd ? at : periodEnd - 1n);
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let aborted = false;
  // set when the period ends: nothing more is sent
  let closed = false;

  const newConnection = () => {
    const client = new Client(url.origin, {
      pipelining: 1,
      headersTimeout: shape.timeoutSeconds * 1000,
      bodyTimeout: shape.timeoutSeconds * 1000,
      connect: { timeout: shape.timeoutSeconds * 1000 },
    });
    connections.push(client);
    return client;
  };
  const settle = () => {
    if (inFlight === 0 && (aborted || closed || (scheduled === due && queue.length === 0))) finish();
  };

  const send = (client: Client, index: number) => {
    const intended = dueAt(index);
    const sentAt = process.hrtime.bigint();
    inFlight++;
    let status = 0;
    let headerBytes = 0;
    let serverCloses = false;
    const chunks: Buffer[] = [];
    const done = (error?: Error) => {
      inFlight--;
      const now = process.hrtime.bigint();
      if (error) {
        tally.error(classifyUndiciError(error), error.message, inPeriod(now));
        // a connection that failed is not reused
        connections.splice(connections.indexOf(client), 1);
        void client.destroy().catch(() => {});
      } else {
        const body = Buffer.concat(chunks);
        tally.bodyBytes += body.length;
        if (check && !check(body)) tally.wrongBody(inPeriod(now));
        if (shape.keepAlive && !serverCloses) tally.keptAlive++;
        tally.answer(status, toMicros(now - intended), headerBytes + body.length, inPeriod(now));
        uncorrected.recordValue(toMicros(now - sentAt));
        idle.push(client);
      }
      dispatch();
      settle();
    };
    const handler: Dispatcher.DispatchHandlers = {
      onConnect: () => {},
      onError: (error) => done(error),
      onHeaders: (statusCode, rawHeaders, _resume, statusText) => {
        status = statusCode;
        headerBytes = `HTTP/1.1 ${statusCode} ${statusText}\r\n`.length + 2;
        for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
          const name = String(rawHeaders[i]);
          const value = String(rawHeaders[i + 1]);
          headerBytes += name.length + value.length + 4;
          if (name.toLowerCase() === 'connection' && value.toLowerCase() === 'close') serverCloses = true;
        }
        return true;
      },
      onData: (chunk) => {
        chunks.push(chunk);
        return true;
      },
      onComplete: () => done(),
    };
    client.dispatch(
      {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method as Dispatcher.HttpMethod,
        headers: { ...request.headers },
        ...(request.body ? { body: request.body } : {}),
        reset: !shape.keepAlive,
      },
      handler,
    );
  };

  const dispatch = () => {
    while (queue.length > 0 && !aborted && !closed) {
      const client = idle.pop() ?? (connections.length < shape.connections ? newConnection() : undefined);
      if (!client) return;
      send(client, queue.shift() ?? 0);
    }
  };

  // release every request whose time has come, then sleep until the next one is due (timer resolution: 1 ms)
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = process.hrtime.bigint();
    while (scheduled < due && dueAt(scheduled) <= now) queue.push(scheduled++);
    dispatch();
    if (scheduled === due) {
      settle();
      return;
    }
    timer = setTimeout(tick, Math.max(0, Number((dueAt(scheduled) - now) / 1_000_000n)));
  };
  const abort = () => {
    aborted = true;
    finish();
  };
  plan.signal?.addEventListener('abort', abort, { once: true });
  const progress = setInterval(() => plan.onProgress?.(tally.progress(start)), 1000);
  const health = watchGeneratorHealth();
  const msUntil = (at: bigint) => Math.max(0, Number((at - process.hrtime.bigint()) / 1_000_000n));
  timer = setTimeout(tick, msUntil(dueAt(0)));
  // the period ends once its last request fell due (a timer may fire up to a millisecond early)
  let closing: NodeJS.Timeout;
  const close = () => {
    tick(); // release and send whatever fell due up to the end
    if (scheduled < due) {
      closing = setTimeout(close, 1);
      return;
    }
    closed = true;
    settle();
  };
  closing = setTimeout(close, msUntil(periodEnd) + 1);
  try {
    await finished;
  } finally {
    if (timer) clearTimeout(timer);
    clearTimeout(closing);
    clearInterval(progress);
    plan.signal?.removeEventListener('abort', abort);
    await Promise.all(connections.map((c) => c.destroy().catch(() => {})));
  }
  const cpuPerSecond = health.cpuPerSecond();
  const uncorrectedHistogram = encodeLatencyHistogram(uncorrected);
  const latencyUncorrected = summarizeLatency(uncorrected);
  uncorrected.destroy();
  return {
    durationSeconds: seconds,
    ...tally.finish(periodEnd, cpuPerSecond),
    latencyUncorrected,
    rate: { target: rate, achieved: Math.round((tally.requests / seconds) * 100) / 100 },
    ...health.stop(),
    startedAtNs: start,
    uncorrectedHistogram,
    droppedRequests: queue.length + (due - scheduled),
  };
}
