import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { LoadEngine, LoadMeasurement, LoadPlan } from '@bench/core';
import { whilePinned } from '@bench/core';
import type { WorkerMessage } from './autocannon-worker.js';
import { mergeThreads, splitShape, type ThreadMeasurement } from './merge-threads.js';
import { toPortable } from './portable-plan.js';

const require = createRequire(import.meta.url);
// client-setup.ts reaches into autocannon's Client internals: the version is pinned exactly in package.json.
const AUTOCANNON_VERSION = (require('autocannon/package.json') as { version: string }).version;

// The worker's heap: room for the live connections (about 20 KB each measured at -c 7000) and
// little more, so V8 collects as it goes instead of growing (measured: 230 MB for warm-up and
// run at -c 7000 against 336 MB unbounded).
const heapLimitMb = (connections: number) => Math.max(128, 64 + Math.ceil(connections / 50));

/**
 * Each run in a worker thread of its own: the generator's event loop carries only the load (not
 * the runner's timers and sampling), and its memory is gone when the run ends (a warm-up's
 * thousands of connections are not still in the heap when the measured run opens as many again).
 */
function runInWorker(plan: LoadPlan, allReady: () => Promise<void> = async () => {}): Promise<ThreadMeasurement> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./autocannon-worker.js', import.meta.url), {
      workerData: toPortable(plan),
      resourceLimits: { maxOldGenerationSizeMb: heapLimitMb(plan.shape.connections), maxYoungGenerationSizeMb: 32 },
    });
    let settled = false;
    const stop = () => worker.postMessage('stop');
    plan.signal?.addEventListener('abort', stop, { once: true });
    if (plan.signal?.aborted) stop();
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      plan.signal?.removeEventListener('abort', stop);
      outcome();
      void worker.terminate();
    };
    worker.on('message', (message: WorkerMessage) => {
      // loaded: the load starts when every thread of the run is (at once for one)
      if (message.type === 'ready') void allReady().then(() => worker.postMessage('go'));
      else if (message.type === 'progress') plan.onProgress?.({ elapsedSeconds: message.elapsedSeconds, requests: message.requests });
      else if (message.type === 'done') finish(() => resolve(message.measurement));
      else finish(() => reject(new Error(message.message)));
    });
    worker.on('error', (error) => finish(() => reject(error)));
    worker.on('exit', (code) => finish(() => reject(new Error(`the autocannon worker exited with code ${code} before reporting`))));
  });
}

/** The plan's connections over its threads, one worker each; one failing stops the rest; progress is their sum. */
async function runThreads(plan: LoadPlan): Promise<LoadMeasurement> {
  const shapes = splitShape(plan.shape, plan.shape.threads ?? 1);
  if (shapes.length === 1) return runInWorker(plan);
  const stop = new AbortController();
  const forward = () => stop.abort();
  plan.signal?.addEventListener('abort', forward, { once: true });
  if (plan.signal?.aborted) stop.abort();
  const requests = shapes.map(() => 0);
  let loaded = 0;
  let release = () => {};
  const everyoneLoaded = new Promise<void>((resolve) => (release = resolve));
  const allReady = () => {
    if (++loaded === shapes.length) release();
    return everyoneLoaded;
  };
  try {
    const parts = await Promise.all(
      shapes.map((shape, i) =>
        runInWorker(
          {
            ...plan,
            shape,
            signal: stop.signal,
            onProgress: (p) => {
              requests[i] = p.requests;
              if (i === 0) plan.onProgress?.({ elapsedSeconds: p.elapsedSeconds, requests: requests.reduce((a, b) => a + b, 0) });
            },
          },
          allReady,
        ).catch((error: unknown) => {
          stop.abort();
          throw error;
        }),
      ),
    );
    return mergeThreads(parts);
  } finally {
    plan.signal?.removeEventListener('abort', forward);
  }
}

/** autocannon, driven through its API in a worker thread of bench's process: the default engine. */
export const autocannonEngine: LoadEngine = {
  name: 'autocannon',
  countsProgress: true,
  description: 'autocannon in-process (Node, worker threads: --client-threads), closed loop',
  clientThreads: true,
  available: async () => ({ ok: true, version: AUTOCANNON_VERSION }),
  supports(shape) {
    if (shape.rate !== undefined)
      return {
        ok: false,
        reason:
          "autocannon's own rate limit sends each connection's quota in bursts and misreports latency; --rate uses bench's open-loop engine",
      };
    return { ok: true };
  },
  // the generator is this process (its workers), pinned for the run when the plan says so; --client-threads
  // spreads the connections over several workers, each with its own event loop and histogram, merged after
  run: (plan) => whilePinned(plan.cpus, () => runThreads(plan)),
};
