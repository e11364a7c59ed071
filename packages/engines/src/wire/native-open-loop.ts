import type { LoadPlan } from '@bench/core';
import { arrivalSchedule } from '../open-loop/arrival-schedule.js';
import { OpenLoopTiming } from '../open-loop/open-loop-timing.js';
import type { ThreadMeasurement } from '../threads/merge-threads.js';
import type { ThreadSlot } from '../threads/serve-thread.js';
import type { NativeLoop } from './native-loop.js';
import { runNativeSlices } from './native-slices.js';
import { WireRun } from './wire-run.js';

/**
 * The open loop (--rate) run by the native loop (native/open-loop.c): the js core's open loop (open-loop.ts) in C, on
 * the same schedule, counted by the same tally. It sends on 1 ms ticks and reads what came between them in one go,
 * each answer timed from the kernel's stamp of its arrival: it does not wake for each answer, which is most of what an
 * open loop costs the client at a rate the server keeps up with (docs/measurements.md#--rate-on-wire).
 */
export async function runNativeOpenLoop(plan: LoadPlan, slot: ThreadSlot, native: NativeLoop): Promise<ThreadMeasurement> {
  const run = new WireRun(plan, slot);
  const rate = plan.shape.rate ?? 1;
  const seconds = plan.shape.durationSeconds ?? 10;
  const timing = new OpenLoopTiming();
  const { unsent } = await runNativeSlices(plan, run, native, {
    budget: -1,
    // the loop ends once its period is over and every request in flight was answered or timed out
    endMs: Number.POSITIVE_INFINITY,
    timing,
    rate: {
      runRate: rate * slot.count,
      threadIndex: slot.index,
      threadCount: slot.count,
      due: arrivalSchedule(rate, seconds, slot).due,
      startMs: run.startMs,
      periodMs: seconds * 1000,
    },
  });
  return run.finishOpenLoop(timing, rate, seconds, unsent);
}
