import type { LoadPlan } from '@bench/core';
import type { ThreadMeasurement } from '../threads/merge-threads.js';
import type { ThreadSlot } from '../threads/serve-thread.js';
import { runClosedLoop } from './closed-loop.js';
import { runOpenLoop } from './open-loop.js';

/** One thread's part of a wire-engine run: the open loop when the shape sets a rate, the closed loop otherwise. */
export const runWire = (plan: LoadPlan, slot: ThreadSlot): Promise<ThreadMeasurement> =>
  plan.shape.rate !== undefined ? runOpenLoop(plan, slot) : runClosedLoop(plan, slot);
