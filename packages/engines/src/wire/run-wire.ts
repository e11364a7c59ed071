import type { LoadPlan } from '@bench/core';
import { errors } from '@bench/core/load-thread';
import type { ThreadMeasurement } from '../threads/merge-threads.js';
import type { ThreadSlot } from '../threads/serve-thread.js';
import { runClosedLoop } from './closed-loop.js';
import { jsSockets } from './js-sockets.js';
import { runNativeClosedLoop } from './native-closed-loop.js';
import { nativeCoreRefused, nativeLoop, nativeLoopRefuses } from './native-loop.js';
import { runNativeOpenLoop } from './native-open-loop.js';
import { runOpenLoop } from './open-loop.js';

/**
 * One thread's part of a wire-engine run: the open loop when the shape sets a rate, else the closed loop; on the
 * native core where it was built and takes the plan (unless --core js or net), on the js core's sockets otherwise.
 */
export async function runWire(plan: LoadPlan, slot: ThreadSlot): Promise<ThreadMeasurement> {
  const open = plan.shape.rate !== undefined;
  const js = async () => ({
    ...(await (open ? runOpenLoop(plan, slot) : runClosedLoop(plan, slot))),
    engineVariant: jsSockets(plan.options?.core).variant,
  });
  if (plan.options?.core === 'js' || plan.options?.core === 'net') return js();
  const { loop, missing } = nativeLoop();
  const refused = missing ?? nativeLoopRefuses(plan);
  if (!refused) return { ...(await (open ? runNativeOpenLoop : runNativeClosedLoop)(plan, slot, loop!)), engineVariant: 'native core' };
  if (plan.options?.core === 'native') throw errors.engineUnsupported('wire', nativeCoreRefused(refused));
  return js();
}
