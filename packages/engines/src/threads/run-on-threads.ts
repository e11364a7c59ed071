import { errors } from '@bench/core';
import { Worker } from 'node:worker_threads';
import type { LoadPlan } from '@bench/core';
import { mergeThreads, RAW_SAMPLES_ENV, splitShape, type ThreadMeasurement } from './merge-threads.js';
import { toPortable } from './portable-plan.js';
import type { FromThread, ThreadRunData, ToThread } from './serve-thread.js';

// A thread's heap: room for its live connections (about 20 KB each measured at -c 7000) and little
// more, so V8 collects as it goes instead of growing (measured: 230 MB for warm-up and run at
// -c 7000 against 336 MB unbounded).
const heapLimitMb = (connections: number) => Math.max(128, 64 + Math.ceil(connections / 50));

// the threads start their load together, this long after the last one is loaded
const START_LEAD_NS = 2_000_000n;

// A thread that finished a run waits this long for the next: the next run meets code V8 has already compiled, not a
// cold thread whose first second runs unoptimized; a minute spans the gaps between one engine's runs in a selfbench
// (docs/measurements.md, "The wire engine, a warm thread").
const KEEP_IDLE_MS = 60_000;

interface IdleThread {
  readonly worker: Worker;
  readonly timer: NodeJS.Timeout;
}
const idle = new Map<string, IdleThread[]>();

function takeThread(module: URL, heapMb: number): { worker: Worker; key: string } {
  const key = `${module.href} ${heapMb}`;
  const kept = idle.get(key)?.pop();
  if (kept) {
    clearTimeout(kept.timer);
    kept.worker.ref();
    return { worker: kept.worker, key };
  }
  const worker = new Worker(module, { resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32 } });
  return { worker, key };
}

function keepThread(key: string, worker: Worker): void {
  const list = idle.get(key) ?? [];
  const entry: IdleThread = {
    worker,
    timer: setTimeout(() => {
      idle.set(
        key,
        (idle.get(key) ?? []).filter((t) => t !== entry),
      );
      void worker.terminate();
    }, KEEP_IDLE_MS).unref(),
  };
  // an idle thread does not keep bench's process alive
  worker.unref();
  idle.set(key, [...list, entry]);
}

/** One thread's run; `allReady` resolves to the common start once every thread of the run is loaded. */
function runOnThread(module: URL, plan: LoadPlan, data: ThreadRunData, allReady: () => Promise<bigint>): Promise<ThreadMeasurement> {
  return new Promise((resolve, reject) => {
    const { worker, key } = takeThread(module, heapLimitMb(plan.shape.connections));
    const send = (message: ToThread) => worker.postMessage(message);
    let settled = false;
    const stop = () => send({ type: 'stop' });
    const onMessage = (message: FromThread) => {
      if (message.type === 'ready') void allReady().then((startAtNs) => send({ type: 'go', startAtNs }));
      else if (message.type === 'progress') plan.onProgress?.(message.progress);
      else if (message.type === 'done') finish(() => resolve(message.measurement), true);
      else finish(() => reject(errors.generatorFailed(message.message)));
    };
    const onError = (error: Error) => finish(() => reject(error));
    const onExit = (code: number) =>
      finish(() => reject(errors.generatorFailed(`the load thread exited with code ${code} before reporting`)));
    function finish(outcome: () => void, reusable = false) {
      if (settled) return;
      settled = true;
      plan.signal?.removeEventListener('abort', stop);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (reusable) keepThread(key, worker);
      else void worker.terminate();
      outcome();
    }
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    plan.signal?.addEventListener('abort', stop, { once: true });
    send({ type: 'prepare', run: data });
    if (plan.signal?.aborted) stop();
  });
}

/**
 * The plan run by `module` (a worker module calling serveThread) on shape.threads worker threads of
 * this process, the connections (and rate, and -n) split over them: each has its own event loop
 * (the runner's timers and sampling stay out of it) and its own bounded heap. They load first and
 * start together; one failing stops the rest; progress is their sum; the measurements merge.
 */
export async function runOnThreads(module: URL, plan: LoadPlan): Promise<ThreadMeasurement> {
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
  const rawSamples = process.env[RAW_SAMPLES_ENV] === '1';
  try {
    const parts = await Promise.all(
      shapes.map((shape, index) => {
        const threadPlan: LoadPlan = {
          ...plan,
          shape,
          signal: stop.signal,
          // progress is the threads' sum, told at the first one's pace; every thread's closed seconds go on as they come
          onProgress: (p) => {
            requests[index] = p.requests;
            if (index === 0 || p.seconds)
              plan.onProgress?.({
                elapsedSeconds: p.elapsedSeconds,
                requests: requests.reduce((a, b) => a + b, 0),
                ...(p.seconds ? { seconds: p.seconds } : {}),
              });
          },
        };
        const data: ThreadRunData = { plan: toPortable(threadPlan), index, count: shapes.length, rawSamples };
        return runOnThread(module, threadPlan, data, allReady).catch((error: unknown) => {
          stop.abort();
          throw error;
        });
      }),
    );
    return mergeThreads(parts);
  } finally {
    plan.signal?.removeEventListener('abort', forward);
  }
}
