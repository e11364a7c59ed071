import { isIPv6 } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { bareHostname, errors, type FailureKind, type LoadPlan } from '@bench/core';
import type { ThreadMeasurement } from '../threads/merge-threads.js';
import type { ThreadSlot } from '../threads/serve-thread.js';
import { exactMismatch } from './body-matcher.js';
import { ANSWER_FLAGS, EVENT, FAILURE_KINDS, RECORD, type NativeLoop } from './native-loop.js';
import { WireRun } from './wire-run.js';

// The loop runs in slices this long between turns of the thread's event loop (progress, the end of -d, an abort):
// the generator's event-loop lag reads about this much.
const SLICE_MS = 5;

/**
 * The closed loop run by the native loop: the same run, counted by the same tally, as the JavaScript closed loop; the
 * connections, their framing and their body checks are native, and their events are counted here a slice at a time.
 */
export async function runNativeClosedLoop(plan: LoadPlan, slot: ThreadSlot, native: NativeLoop): Promise<ThreadMeasurement> {
  const run = new WireRun(plan, slot);
  const { shape } = plan;
  const url = new URL(plan.url);
  const expected = plan.expect.kind === 'exact' ? plan.expect.bytes() : undefined;
  // the records of a slice: room for one epoll batch of 256 events (each read frames at most its pipeline's answers
  // and a failure), and 16,384 more, filled before the slice ends early
  const records = new Float64Array((256 * (2 * run.depth + 8) + 16_384) * RECORD);
  const text = Buffer.alloc(256 * 1024);
  const byCount = shape.requests !== undefined;
  const seconds = shape.durationSeconds ?? 0;
  // -d: the last slice ends with the period (answers read after it are not counted)
  const endMs = byCount ? Number.POSITIVE_INFINITY : run.startMs + seconds * 1000;
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
    connections: shape.connections,
    depth: run.depth,
    perConnection: Number.isFinite(run.perConnection) ? run.perConnection : 0,
    timeoutMs: run.timeoutMs,
    budget: shape.requests ?? -1,
    nowMs: performance.now(),
    records,
    text,
  });
  const expectedLength = expected?.length ?? 0;
  // a message or a body's sample that the native loop wrote into the text buffer
  const textAt = (offset: number, length: number) => text.subarray(offset, offset + length);
  let lastAnswerMs = run.startMs;
  let lost = 0;
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
            Math.max(1, Math.round(records[r + 3]!)),
            nowMs,
          );
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
    lost = native.stop(handle);
    plan.signal?.removeEventListener('abort', stop);
  }
  // the loop keeps room for every event it can write: one lost is bench's bug, not the server's
  if (lost > 0) throw errors.generatorFailed(`wire's native core lost ${lost} events for want of room (a bug in bench: please report it)`);
  // -n ends at the last answer (as ab measures); -d at the end of its period, or where a stop (a settled warm-up) cut it
  const endNs = byCount ? run.nsAt(lastAnswerMs) : run.periodEnd(seconds);
  return run.finish(endNs, Number(endNs - run.startNs) / 1e9);
}
