import { isIPv6 } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FailureKind, LoadPlan } from '@bench/core';
import { bareHostname, errors } from '@bench/core/load-thread';
import { exactMismatch } from './body-matcher.js';
import { ANSWER_FLAGS, EVENT, FAILURE_KINDS, RECORD, type NativeLoop, type NativeSchedule } from './native-loop.js';
import type { WireRun } from './wire-run.js';
import type { OpenLoopTiming } from '../open-loop/open-loop-timing.js';

// The loop runs in slices this long between turns of the thread's event loop (progress, the end of -d, an abort):
// the generator's event-loop lag reads about this much.
const SLICE_MS = 5;

export interface NativeRunShape {
  /** Requests to start in all (-n); -1 for no end. */
  readonly budget: number;
  /** When the last slice ends (performance.now()): the end of -d's period; Infinity to run until the loop is over. */
  readonly endMs: number;
  /** The open loop's schedule; none for the closed loop. */
  readonly rate?: NativeSchedule;
  /** The open loop's latencies from each request's send and its lateness (its records give both times). */
  readonly timing?: OpenLoopTiming;
}

const toMicros = (us: number) => Math.max(1, Math.round(us));

/**
 * Runs the native loop for `run` a slice at a time until `shape.endMs`, the loop's own end or an abort, and counts each
 * slice's events (connects, answers, failures) into the run, by the same tally as the JavaScript loops. Returns when
 * the last answer was read and the open loop's requests never sent.
 */
export async function runNativeSlices(
  plan: LoadPlan,
  run: WireRun,
  native: NativeLoop,
  shape: NativeRunShape,
): Promise<{ lastAnswerMs: number; unsent: number }> {
  const url = new URL(plan.url);
  const expected = plan.expect.kind === 'exact' ? plan.expect.bytes() : undefined;
  // the records of a slice: room for one epoll batch of 256 events (each read frames at most its pipeline's answers
  // and a failure), and 16,384 more, filled before the slice ends early
  const records = new Float64Array((256 * (2 * run.depth + 8) + 16_384) * RECORD);
  const text = Buffer.alloc(256 * 1024);
  let stopped = false;
  const stop = () => (stopped = true);
  plan.signal?.addEventListener('abort', stop, { once: true });
  if (plan.signal?.aborted) stop();
  const handle = native.open({
    address: bareHostname(url),
    family: isIPv6(bareHostname(url)) ? 6 : 4,
    port: Number(url.port || 80),
    request: run.request,
    expected,
    headOnly: plan.request.method === 'HEAD' ? 1 : 0,
    connections: plan.shape.connections,
    depth: run.depth,
    perConnection: Number.isFinite(run.perConnection) ? run.perConnection : 0,
    timeoutMs: run.timeoutMs,
    budget: shape.budget,
    nowMs: performance.now(),
    records,
    text,
    ...(shape.rate ? { rate: shape.rate } : {}),
  });
  const { endMs, timing } = shape;
  const expectedLength = expected?.length ?? 0;
  // a message or a body's sample that the native loop wrote into the text buffer
  const textAt = (offset: number, length: number) => text.subarray(offset, offset + length);
  let lastAnswerMs = run.startMs;
  let ended = { lost: 0, unsent: 0 };
  try {
    for (let left = endMs - performance.now(); !stopped && left > 0; left = endMs - performance.now()) {
      const written = native.pump(handle, Math.min(SLICE_MS, left));
      const count = written < 0 ? -1 - written : written;
      for (let i = 0, r = 0; i < count; i++, r += RECORD) {
        const kind = records[r]!;
        if (kind === EVENT.answer) {
          const flags = records[r + 7]!;
          const bodyOk = (flags & ANSWER_FLAGS.bodyOk) !== 0;
          const nowMs = records[r + 6]!;
          if (flags & ANSWER_FLAGS.first) run.recordFirstByte(records[r + 8]!);
          const bodyBytes = records[r + 5]!;
          run.record(
            records[r + 2]!,
            records[r + 4]!,
            bodyBytes,
            bodyOk,
            (flags & ANSWER_FLAGS.closes) !== 0,
            toMicros(records[r + 3]!),
            nowMs,
          );
          timing?.answeredAfter(records[r + 3]!, records[r + 12]!);
          if (!bodyOk) {
            const at = records[r + 9]!;
            const differed = at >= 0 ? { at, sample: textAt(records[r + 10]!, records[r + 11]!) } : undefined;
            run.tally.sample(exactMismatch(bodyBytes, expectedLength, differed));
          }
          lastAnswerMs = nowMs;
        } else if (kind === EVENT.connected) run.recordConnect(records[r + 2]!);
        else if (kind === EVENT.failed) {
          const message = textAt(records[r + 4]!, records[r + 5]!).toString('latin1');
          run.recordFailure(FAILURE_KINDS[records[r + 2]!] as FailureKind, message, records[r + 3]!, run.nsAt(records[r + 6]!));
        }
      }
      if (written < 0) break;
      // a turn of the thread's event loop: timers (progress, the end of -d) and an abort
      await nextTurn();
    }
  } finally {
    ended = native.stop(handle);
    plan.signal?.removeEventListener('abort', stop);
  }
  // the loop keeps room for every event it can write: one lost is bench's bug, not the server's
  if (ended.lost > 0)
    throw errors.generatorFailed(`wire's native core lost ${ended.lost} events for want of room (a bug in bench: please report it)`);
  return { lastAnswerMs, unsent: ended.unsent };
}
