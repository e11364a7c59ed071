// The worker side of an in-process engine's thread: one run, its own event loop and its own
// bounded heap. It says 'ready' once loaded and starts its load at 'go', so several threads start
// together and none counts another's start-up in its run ('stop' before 'go' returns an empty run at once).
import { parentPort, workerData } from 'node:worker_threads';
import type { LoadPlan } from '@bench/core';
import { fromPortable, type PortablePlan } from './portable-plan.js';
import type { ThreadMeasurement } from './merge-threads.js';

/** Which of the run's threads this is, and when the load starts (process.hrtime.bigint(), one clock for every thread). */
export interface ThreadSlot {
  readonly index: number;
  readonly count: number;
  readonly startAtNs: bigint;
}

export interface ThreadData {
  readonly plan: PortablePlan;
  readonly index: number;
  readonly count: number;
}

export type ToThread = { readonly type: 'go'; readonly startAtNs: bigint } | { readonly type: 'stop' };

export type FromThread =
  | { readonly type: 'ready' }
  | { readonly type: 'progress'; readonly elapsedSeconds: number; readonly requests: number }
  | { readonly type: 'done'; readonly measurement: ThreadMeasurement }
  | { readonly type: 'failed'; readonly message: string };

export type ThreadRun = (plan: LoadPlan, slot: ThreadSlot) => Promise<ThreadMeasurement>;

/** Runs `run` once in this worker thread, driven by the messages of runOnThreads. */
export function serveThread(run: ThreadRun): void {
  const port = parentPort;
  if (!port) return;
  const data = workerData as ThreadData;
  const stop = new AbortController();
  const post = (message: FromThread) => port.postMessage(message);
  let started = false;
  const start = (startAtNs: bigint) => {
    if (started) return;
    started = true;
    run(
      {
        ...fromPortable(data.plan),
        signal: stop.signal,
        onProgress: (p) => post({ type: 'progress', elapsedSeconds: p.elapsedSeconds, requests: p.requests }),
      },
      { index: data.index, count: data.count, startAtNs },
    ).then(
      (measurement) => post({ type: 'done', measurement }),
      (error: unknown) => post({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  };
  port.on('message', (message: ToThread) => {
    if (message.type === 'stop') stop.abort();
    start(message.type === 'go' ? message.startAtNs : process.hrtime.bigint());
  });
  post({ type: 'ready' });
}
