import type { LoadPlan } from '@bench/core';
import type { ThreadMeasurement } from '../threads/merge-threads.js';
import type { ThreadSlot } from '../threads/serve-thread.js';
import type { NativeLoop } from './native-loop.js';
import { runNativeSlices } from './native-slices.js';
import { WireRun } from './wire-run.js';

/**
 * The closed loop run by the native loop: the same run, counted by the same tally, as the JavaScript closed loop; the
 * connections, their framing and their body checks are native, and their events are counted a slice at a time.
 */
export async function runNativeClosedLoop(plan: LoadPlan, slot: ThreadSlot, native: NativeLoop): Promise<ThreadMeasurement> {
  const run = new WireRun(plan, slot);
  const { shape } = plan;
  const byCount = shape.requests !== undefined;
  const seconds = shape.durationSeconds ?? 0;
  const { lastAnswerMs } = await runNativeSlices(plan, run, native, {
    budget: shape.requests ?? -1,
    // -d: the last slice ends with the period (answers read after it are not counted)
    endMs: byCount ? Number.POSITIVE_INFINITY : run.startMs + seconds * 1000,
  });
  // -n ends at the last answer (as ab measures); -d at the end of its period, or where a stop (a settled warm-up) cut it
  const endNs = byCount ? run.nsAt(lastAnswerMs) : run.periodEnd(seconds);
  return run.finish(endNs, Number(endNs - run.startNs) / 1e9);
}
