import type { ConnectTimes, FailureKind, LoadPlan } from '@bench/core';
import { bareHostname, createLatencyHistogram, recycleLatencyHistogram, timedPhase, watchGeneratorHealth } from '@bench/core/load-thread';
import { RunTally } from '../threads/run-tally.js';
import type { OpenLoopTiming } from '../open-loop/open-loop-timing.js';
import type { ThreadSlot } from '../threads/serve-thread.js';
import { AnswerMemo } from './answer-memo.js';
import { bodyMatcher } from './body-matcher.js';
import { encodeHttp1Request } from '../http1-request.js';
import type { ParsedAnswer } from './response-parser.js';
import { jsSockets } from './js-sockets.js';
import { WireConnection, type ConnectionEvents, type ConnectionSetup } from './wire-connection.js';

const READ_BUFFER_BYTES = 64 * 1024;
const toMicros = (ms: number) => Math.max(1, Math.round(ms * 1000));

/** How many requests a connection keeps in flight: the run's -p (1 unless given). */
export const pipeliningOf = (shape: LoadPlan['shape']): number => shape.pipelining ?? 1;

/**
 * What the wire engine's loops share in one thread: the request encoded once, the js core's read buffer, the tally
 * (answers, failures, histogram, seconds), the connect times, the generator's health, progress and abort.
 */
export class WireRun {
  readonly startNs = process.hrtime.bigint();
  /** The same instant on performance.now()'s clock. */
  readonly startMs = performance.now();
  readonly tally: RunTally;
  readonly depth: number;
  /** Answers a connection gives before it is closed and replaced: 1 without keep-alive, else --requests-per-connection or no limit. */
  readonly perConnection: number;
  readonly timeoutMs: number;
  private readonly connectTimes = createLatencyHistogram();
  /** From each connection's start to the first read of an answer on it. */
  private readonly firstBytes = createLatencyHistogram();
  private readonly health = watchGeneratorHealth();
  private readonly progress: NodeJS.Timeout;
  private sweeper: NodeJS.Timeout | undefined;
  private setup: Omit<ConnectionSetup, 'events'> | undefined;
  /** The request's bytes, encoded once for the run. */
  readonly request: Buffer;
  private setupFor: ConnectionEvents | undefined;
  private setupWithEvents: ConnectionSetup | undefined;
  readonly live = new Set<WireConnection>();

  constructor(
    readonly plan: LoadPlan,
    slot: ThreadSlot,
  ) {
    this.tally = new RunTally(this.startNs, slot.rawSamples);
    this.depth = plan.shape.keepAlive ? pipeliningOf(plan.shape) : 1;
    this.perConnection = plan.shape.keepAlive ? (plan.shape.requestsPerConnection ?? Number.POSITIVE_INFINITY) : 1;
    this.timeoutMs = plan.shape.timeoutSeconds * 1000;
    // encoded once for the whole run: every connection writes these same bytes
    const url = new URL(plan.url);
    this.request = encodeHttp1Request(
      {
        method: plan.request.method,
        target: `${url.pathname}${url.search}`,
        host: url.host,
        headers: plan.request.headers,
        body: plan.request.body,
      },
      plan.shape.keepAlive,
    );
    this.progress = setInterval(() => plan.onProgress?.(this.tally.progress(this.startNs)), 1000);
  }

  /** What every JavaScript connection of the run shares, made at the first (the native core opens none). */
  private connectionSetup(): Omit<ConnectionSetup, 'events'> {
    if (this.setup) return this.setup;
    const { plan } = this;
    const url = new URL(plan.url);
    // its own memory, at offset 0: the memo reads it by 4-byte words
    const readBuffer = Buffer.from(new ArrayBuffer(READ_BUFFER_BYTES));
    this.setup = {
      address: bareHostname(url),
      port: Number(url.port || 80),
      requests: this.depth === 1 ? this.request : Buffer.concat(new Array<Buffer>(this.depth).fill(this.request)),
      matcher: () => bodyMatcher(plan.expect, plan.maxCheckedBody),
      headOnly: plan.request.method === 'HEAD',
      depth: this.depth,
      readBuffer,
      memo: new AnswerMemo(readBuffer),
      openSocket: jsSockets(plan.options?.core).open,
    };
    // a request unanswered for --timeout fails its connection (and those in flight behind it); so does a connect
    this.sweeper = setInterval(() => this.sweep(), Math.min(250, Math.max(10, plan.shape.timeoutSeconds * 250)));
    this.sweeper.unref();
    return this.setup;
  }

  /** Opens a connection whose events go to `events` (the run records its connect time and answers first). */
  open(events: ConnectionEvents): WireConnection {
    // one setup for every connection of a loop
    if (this.setupFor !== events) {
      this.setupFor = events;
      // written out, not spread: a spread object gets a new hidden class at every run, and every read of a connection's
      // setup then met a class it had not seen (scripts/measure/wire-recompiles.mjs: 9-14 deoptimizations a run in runs 1-4)
      const { address, port, requests, matcher, headOnly, depth, readBuffer, memo, openSocket } = this.connectionSetup();
      const recorded = new RecordedEvents(this, events);
      this.setupWithEvents = { address, port, requests, matcher, headOnly, depth, readBuffer, memo, openSocket, events: recorded };
    }
    const connection = new WireConnection(this.setupWithEvents!);
    this.live.add(connection);
    return connection;
  }

  /** The run's own record of a connection's connect, before its loop hears of it. */
  recordConnect(ms: number): void {
    this.connectTimes.recordValue(toMicros(ms));
    this.tally.series.connection();
  }

  /** The run's own record of an answer, before its loop hears of it. */
  recordAnswer(c: WireConnection, answer: ParsedAnswer, intendedMs: number, nowMs: number): void {
    if (c.answers === 1) this.recordFirstByte(c.firstReadMs - c.askedAtMs);
    this.record(answer.status, answer.bytes, answer.bodyBytes, answer.bodyMatches, answer.closes, toMicros(nowMs - intendedMs), nowMs);
    if (!answer.bodyMatches) this.tally.sample(c.bodyMismatch());
  }

  /** A connection's first answer began to arrive `ms` after the connection was asked for. */
  recordFirstByte(ms: number): void {
    this.firstBytes.recordValue(toMicros(ms));
  }

  /** The run's own record of a failure, before its loop hears of it. */
  recordFailure(kind: FailureKind, message: string, lost: number, nowNs: bigint): void {
    for (let i = 0; i < lost; i++) this.tally.error(kind, message, nowNs);
  }

  /** Closes every connection (requests in flight are not counted: the period is over). */
  closeAll(): void {
    for (const connection of [...this.live]) connection.close();
  }

  /** The thread's measurement, its seconds up to `endNs`. */
  finish(endNs: bigint, durationSeconds: number) {
    clearInterval(this.progress);
    clearInterval(this.sweeper);
    this.closeAll();
    const cpuPerSecond = this.health.cpuPerSecond();
    const connects: ConnectTimes = {
      count: this.connectTimes.totalCount,
      ...timedPhase(this.connectTimes),
      firstByte: timedPhase(this.firstBytes),
    };
    recycleLatencyHistogram(this.connectTimes);
    recycleLatencyHistogram(this.firstBytes);
    return {
      durationSeconds: Math.max(durationSeconds, 1e-6),
      ...this.tally.finish(endNs, cpuPerSecond),
      ...this.health.stop(),
      startedAtNs: this.startNs,
      connects,
    };
  }

  /**
   * An open loop's measurement: `timing`, its latencies from each request's send and how late each went out, beside
   * those from its due time; the rate asked for and achieved over the period (as scheduled, or up to a stop that cut it
   * short); `droppedRequests`, those never sent.
   */
  finishOpenLoop(timing: OpenLoopTiming, rate: number, seconds: number, droppedRequests: number) {
    const timed = timing.finish();
    const periodEnd = this.periodEnd(seconds);
    const periodSeconds = Number(periodEnd - this.startNs) / 1e9;
    const measurement = this.finish(periodEnd, periodSeconds);
    return {
      ...measurement,
      ...timed,
      rate: { target: rate, achieved: Math.round((measurement.requests / periodSeconds) * 100) / 100 },
      droppedRequests,
    };
  }

  /** The end of a period of `seconds` from the start: as planned, or now when the run was stopped (aborted) before it. */
  periodEnd(seconds: number): bigint {
    const planned = this.startNs + BigInt(Math.round(seconds * 1e9));
    const now = process.hrtime.bigint();
    return now < planned ? now : planned;
  }

  /** The instant `ms` (a performance.now() reading) on the run's process.hrtime.bigint() clock. */
  nsAt(ms: number): bigint {
    return this.startNs + BigInt(Math.round((ms - this.startMs) * 1e6));
  }

  /** An answer, `latencyUs` after it was (meant to be) sent, read at `nowMs`. */
  record(status: number, bytes: number, bodyBytes: number, bodyMatches: boolean, closes: boolean, latencyUs: number, nowMs: number): void {
    const tally = this.tally;
    tally.bodyBytes += bodyBytes;
    if (!bodyMatches) tally.wrongBody(this.nsAt(nowMs));
    if (this.plan.shape.keepAlive && !closes) tally.keptAlive++;
    tally.answerAfter(status, latencyUs, bytes, nowMs - this.startMs);
  }

  private sweep(): void {
    const now = performance.now();
    // a Set goes on past the connection deleted under it (a failed one closes): no copy of 3,000 connections each turn
    for (const connection of this.live) {
      const since = connection.connected ? connection.oldestSentMs : connection.askedAtMs;
      if (since !== undefined && now - since > this.timeoutMs)
        connection.fail(connection.connected ? 'timeout' : 'connect', `no answer within ${this.plan.shape.timeoutSeconds} s`);
    }
  }
}

/**
 * A loop's connection events with the run's own records first. A class, not closures made per run: its methods are the
 * same functions run after run, so the code V8 optimized for one run still holds in the next.
 */
class RecordedEvents implements ConnectionEvents {
  constructor(
    private readonly run: WireRun,
    private readonly loop: ConnectionEvents,
  ) {}

  connected(c: WireConnection, ms: number): void {
    this.run.recordConnect(ms);
    this.loop.connected(c, ms);
  }

  answered(c: WireConnection, answer: ParsedAnswer, sentMs: number, intendedMs: number, nowMs: number): void {
    this.run.recordAnswer(c, answer, intendedMs, nowMs);
    this.loop.answered(c, answer, sentMs, intendedMs, nowMs);
  }

  failed(c: WireConnection, kind: FailureKind, message: string, lost: number, nowNs: bigint): void {
    this.run.recordFailure(kind, message, lost, nowNs);
    this.loop.failed(c, kind, message, lost, nowNs);
  }

  ended(c: WireConnection): void {
    this.run.live.delete(c);
    this.loop.ended(c);
  }
}
