import { Worker } from 'node:worker_threads';
import type { LoadPlan } from '@bench/core';
import { mergeThreads, splitShape, type ThreadMeasurement } from './merge-threads.js';
import { toPortable } from './portable-plan.js';
import type { FromThread, ThreadData, ToThread } from './serve-thread.js';

// A thread's heap: room for its live connections (about 20 KB each measured at -c 7000) and little
// more, so V8 collects as it goes instead of growing (measured: 230 MB for warm-up and run at
// -c 7000 against 336 MB unbounded).
const heapLimitMb = (connections: number) => Math.max(128, 64 + Math.ceil(connections / 50));

// the threads start their load together, this long after the last one is loaded
const START_LEAD_NS = 2_000_000n;

/** One thread's run in a worker of its own; `allReady` resolves to the common start once every thread of the run is loaded. */
function runInWorker(worker: URL, plan: LoadPlan, data: ThreadData, allReady: () => Promise<bigint>): Promise<ThreadMeasurement> {
  return new Promise((resolve, reject) => {
    const thread = new Worker(worker, {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: heapLimitMb(plan.shape.connections), maxYoungGenerationSizeMb: 32 },
    });
    const send = (message: ToThread) => thread.postMessage(message);
    let settled = false;
    const stop = () => send({ type: 'stop' });
    plan.signal?.addEventListener('abort', stop, { once: true });
    if (plan.signal?.aborted) stop();
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      plan.signal?.removeEventListener('abort', stop);
      outcome();
      void thread.terminate();
    };
    thread.on('message', (message: FromThread) => {
      if (message.type === 'ready') void allReady().then((startAtNs) => send({ type: 'go', startAtNs }));
      else if (message.type === 'progress') plan.onProgress?.({ elapsedSeconds: message.elapsedSeconds, requests: message.requests });
      else if (message.type === 'done') finish(() => resolve(message.measurement));
      else finish(() => reject(new Error(message.message)));
    });
    thread.on('error', (error) => finish(() => reject(error)));
    thread.on('exit', (code) => finish(() => reject(new Error(`the load thread exited with code ${code} before reporting`))));
  });
}

/**
 * The plan run by `worker` (a module calling serveThread) on shape.threads worker threads of this
 * process, the connections (and rate, and -n) split over them: each has its own event loop (the
 * runner's timers and sampling stay out of it) and its own heap, gone when the run ends. They load
 * first and start together; one failing stops the rest; progress is their sum; the measurements merge.
 */
export async function runOnThreads(worker: URL, plan: LoadPlan): Promise<ThreadMeasurement> {
  const shapes = splitShape(plan.shape, plan.shape.threads ?? 1);
  const stop = new AbortController();
  const forward = () => stop.abort();
  plan.signal?.addEventListener('abort', forward, { once: true });
  if (plan.signal?.aborted) stop.abort();
  const requests = shapes.map(() => 0);
  let loaded = 0;
  let release: (startAtNs: bigint) => void = () => {};
  const everyoneLoaded = new Promise<bigint>((resolve) => (release = resolve));
  const allReady = () => {
    if (++loaded === shapes.length) release(process.hrtime.bigint() + START_LEAD_NS);
    return everyoneLoaded;
  };
  try {
    const parts = await Promise.all(
      shapes.map((shape, index) => {
        const threadPlan: LoadPlan = {
          ...plan,
          shape,
          signal: stop.signal,
          onProgress: (p) => {
            requests[index] = p.requests;
            if (index === 0) plan.onProgress?.({ elapsedSeconds: p.elapsedSeconds, requests: requests.reduce((a, b) => a + b, 0) });
          },
        };
        return runInWorker(worker, threadPlan, { plan: toPortable(threadPlan), index, count: shapes.length }, allReady).catch(
          (error: unknown) => {
            stop.abort();
            throw error;
          },
        );
      }),
    );
    return mergeThreads(parts);
  } finally {
    plan.signal?.removeEventListener('abort', forward);
  }
}
