import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { buildConnector, Client, type Dispatcher } from 'undici';
import type { FlowCursor, LoadPlan, RenderedRequest } from '@bench/core';
import {
  bodyBytesCheck,
  bodyKeepLimit,
  BoundedBody,
  DEFAULT_MAX_CHECKED_BODY,
  CompiledWorkload,
  ConnectionTimer,
  threadValueSource,
  watchGeneratorHealth,
} from '@bench/core/load-thread';
import type { ThreadMeasurement } from '../threads/merge-threads.js';
import type { ThreadSlot } from '../threads/serve-thread.js';
import { RunTally } from '../threads/run-tally.js';
import { StepTallies } from '../threads/step-tallies.js';
import { arrivalSchedule } from './arrival-schedule.js';
import { OpenLoopTiming } from './open-loop-timing.js';
import { classifyUndiciError } from './undici-errors.js';

const toMicros = (ns: bigint) => Math.max(1, Number(ns / 1000n));

// undici warns once per process that its HTTP/2 client is experimental; bench's report says which protocol ran
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = (warning: string | Error, ...rest: unknown[]) => {
  const code = typeof rest[0] === 'object' && rest[0] !== null ? (rest[0] as { code?: string }).code : rest[1];
  if (code !== 'UNDICI-H2') (emitWarning as (...args: unknown[]) => void)(warning, ...rest);
};

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
  const maxCheckedBody = plan.maxCheckedBody ?? DEFAULT_MAX_CHECKED_BODY;
  // a workload's steps keep their bodies for their checks and captures; one request, what its check needs
  const keepLimit = plan.workload ? maxCheckedBody : check ? bodyKeepLimit(plan.expect, maxCheckedBody) : 0;
  // the tally's latency is from the intended send time; beside it, from the actual send, and how late that was
  const timing = new OpenLoopTiming();
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

  // over TLS the server is verified: against the run's CA when there is one, else the system's roots (undici's default)
  const ca = plan.caFile ? readFileSync(plan.caFile) : undefined;
  // h2: HTTP/2 negotiated by ALPN, one stream at a time on each connection (the open loop's model)
  const h2 = plan.protocol === 'h2' ? { allowH2: true } : {};
  // every socket a client opens is timed: its connect, its TLS handshake, its first byte
  const connectionTimer = new ConnectionTimer(url.protocol === 'https:', tally.series);
  const newConnection = () => {
    // a connector per client, as undici makes one by default (each keeps its own TLS sessions)
    const connector = buildConnector({ timeout: shape.timeoutSeconds * 1000, ...(ca ? { ca } : {}), ...h2 });
    const client = new Client(url.origin, {
      pipelining: 1,
      headersTimeout: shape.timeoutSeconds * 1000,
      bodyTimeout: shape.timeoutSeconds * 1000,
      connect: (options, callback) => {
        // undici's connector returns the socket it opened (its typings say void)
        const opened: unknown = connector(options, callback);
        connectionTimer.watch(opened as Socket);
      },
      ...h2,
    });
    connections.push(client);
    return client;
  };
  const settle = () => {
    if (inFlight === 0 && (aborted || closed || (scheduled === due && queue.length === 0))) finish();
  };

  // a workload: each connection is a virtual user with its cursor; an arrival runs one pass of its flow on it
  const thread = { index: slot.index, count: slot.count };
  const workload = plan.workload ? new CompiledWorkload(plan.workload, threadValueSource(thread.index, thread.count), thread) : undefined;
  const steps = workload ? new StepTallies(workload.steps) : undefined;
  steps?.restart(start);
  const cursors = new Map<Client, FlowCursor>();
  // a workload's rate counts arrivals (passes of its flow begun), not the requests each sends
  let arrivals = 0;

  /** One request on `client`, timed from `from` (its due time for an arrival's first); `next` runs once it is counted. */
  const sendOne = (client: Client, from: bigint, rendered: RenderedRequest | undefined, next: (ok: boolean) => void) => {
    const sentAt = process.hrtime.bigint();
    inFlight++;
    let status = 0;
    let headerBytes = 0;
    let serverCloses = false;
    const headers: Record<string, string> = {};
    const kept = new BoundedBody(keepLimit);
    const done = (error?: Error) => {
      inFlight--;
      const now = process.hrtime.bigint();
      if (error) {
        tally.error(classifyUndiciError(error), error.message, inPeriod(now));
        if (rendered) steps!.error(rendered.step.index, classifyUndiciError(error), error.message, inPeriod(now));
        // a connection that failed is not reused
        connections.splice(connections.indexOf(client), 1);
        cursors.delete(client);
        void client.destroy().catch(() => {});
        next(false);
        return;
      }
      const body = kept.bytes();
      const bodyBytes = kept.total;
      const latencyUs = toMicros(now - from);
      tally.bodyBytes += bodyBytes;
      if (shape.keepAlive && !serverCloses) tally.keptAlive++;
      tally.answer(status, latencyUs, headerBytes + bodyBytes, inPeriod(now));
      timing.answeredAfter(Number(now - from) / 1000, Number(now - sentAt) / 1000);
      let ok = true;
      if (rendered) {
        const { step } = rendered;
        steps!.answer(step.index, status, latencyUs, headerBytes + bodyBytes, inPeriod(now));
        const over = kept.over ? keepLimit : undefined;
        const problem = cursors.get(client)?.answered(step, status, headers, body.toString('utf8'), bodyBytes, over);
        if (problem) {
          ok = false;
          tally.wrongBody(inPeriod(now));
          tally.sample(problem.message);
          steps!.wrong(step.index, problem.message, inPeriod(now));
        }
      } else if (check && (kept.over || !check(body))) tally.wrongBody(inPeriod(now));
      next(ok);
    };
    const handler: Dispatcher.DispatchHandlers = {
      onConnect: () => {},
      onError: (error) => done(error),
      onHeaders: (statusCode, rawHeaders, _resume, statusText) => {
        status = statusCode;
        // bytes, not characters: undici hands the headers over as buffers, the status text decoded as UTF-8
        headerBytes = Buffer.byteLength(`HTTP/1.1 ${statusCode} ${statusText}\r\n`) + 2;
        for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
          const name = String(rawHeaders[i]);
          const value = String(rawHeaders[i + 1]);
          headerBytes += rawHeaders[i]!.length + rawHeaders[i + 1]!.length + 4;
          if (rendered) headers[name.toLowerCase()] ??= value;
          if (name.toLowerCase() === 'connection' && value.toLowerCase() === 'close') serverCloses = true;
        }
        return true;
      },
      onData: (chunk) => {
        kept.push(chunk);
        return true;
      },
      onComplete: () => done(),
    };
    client.dispatch(
      {
        origin: url.origin,
        path: rendered ? rendered.path : `${url.pathname}${url.search}`,
        method: (rendered ?? request).method as Dispatcher.HttpMethod,
        headers: rendered ? rendered.headers : { ...request.headers },
        ...(rendered ? (rendered.body !== undefined ? { body: rendered.body } : {}) : request.body ? { body: request.body } : {}),
        reset: !shape.keepAlive,
      },
      handler,
    );
  };

  const release = (client: Client) => {
    if (connections.includes(client)) idle.push(client);
    dispatch();
    settle();
  };

  const send = (client: Client, index: number) => {
    const intended = dueAt(index);
    if (!workload) {
      sendOne(client, intended, undefined, () => release(client));
      return;
    }
    arrivals++;
    let cursor = cursors.get(client);
    if (!cursor) cursors.set(client, (cursor = workload.connection()));
    // the arrival's steps one after another on its connection, until its pass ends (or a once step failed, or the period did)
    const step = (from: bigint) => {
      const rendered = cursor.next();
      // a request a captured value would break is not sent: a failure of its step, and the end of its arrival
      if ('refused' in rendered) {
        const now = inPeriod(process.hrtime.bigint());
        tally.error('exceptions', rendered.refused, now);
        steps!.error(rendered.step.index, 'exceptions', rendered.refused, now);
        return release(client);
      }
      sendOne(client, from, rendered, (ok) => {
        const failedOnce = !ok && cursor.isPendingOnce(rendered.step);
        if (!ok && !connections.includes(client)) return release(client);
        if (failedOnce || cursor.atPassStart() || aborted || closed) return release(client);
        step(process.hrtime.bigint());
      });
    };
    step(intended);
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
  if (plan.signal?.aborted) abort();
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
  const timed = timing.finish();
  return {
    durationSeconds: seconds,
    ...tally.finish(periodEnd, cpuPerSecond),
    ...timed,
    rate: { target: rate, achieved: Math.round(((workload ? arrivals : tally.requests) / seconds) * 100) / 100 },
    ...health.stop(),
    startedAtNs: start,
    droppedRequests: queue.length + (due - scheduled),
    ...(steps ? { steps: steps.finish(periodEnd) } : {}),
    connects: connectionTimer.finish(),
  };
}
