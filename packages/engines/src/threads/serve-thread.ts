// The worker side of an in-process engine's threads. A thread serves one run after another (kept
// warm between a cell's warm-up and its measured run, and between cells): each run is loaded with
// 'prepare', answered 'ready', started at 'go', so several threads start together and none counts
// another's start-up in its run ('stop' before 'go' returns an empty run at once).
import { messageOf } from '@bench/core/load-thread';
import { parentPort } from 'node:worker_threads';
import type { LoadPlan, LoadProgress } from '@bench/core';
import { fromPortable, type PortablePlan } from './portable-plan.js';
import type { ThreadMeasurement } from './merge-threads.js';

/** Which of the run's threads this is, and when the load starts (process.hrtime.bigint(), one clock for every thread). */
export interface ThreadSlot {
  readonly index: number;
  readonly count: number;
  readonly startAtNs: bigint;
  /** Test mode: also return every latency recorded (µs), so a test can pool the threads' samples. */
  readonly rawSamples?: boolean;
}

export interface ThreadRunData {
  readonly plan: PortablePlan;
  readonly index: number;
  readonly count: number;
  readonly rawSamples: boolean;
}

export type ToThread =
  | { readonly type: 'prepare'; readonly run: ThreadRunData }
  | { readonly type: 'go'; readonly startAtNs: bigint }
  | { readonly type: 'stop' };

export type FromThread =
  | { readonly type: 'ready' }
  | { readonly type: 'progress'; readonly progress: LoadProgress }
  | { readonly type: 'done'; readonly measurement: ThreadMeasurement }
  | { readonly type: 'failed'; readonly message: string };

export type ThreadRun = (plan: LoadPlan, slot: ThreadSlot) => Promise<ThreadMeasurement>;

/** Serves runs of `run` in this worker thread, driven by the messages of runOnThreads. */
export function serveThread(run: ThreadRun): void {
  const port = parentPort;
  if (!port) return;
  const post = (message: FromThread) => port.postMessage(message);
  let current: { data: ThreadRunData; stop: AbortController; started: boolean } | undefined;
  const start = (startAtNs: bigint) => {
    if (!current || current.started) return;
    const { data, stop } = current;
    current.started = true;
    run(
      {
        ...fromPortable(data.plan),
        signal: stop.signal,
        onProgress: (progress) => post({ type: 'progress', progress }),
      },
      { index: data.index, count: data.count, startAtNs, rawSamples: data.rawSamples },
    ).then(
      (measurement) => post({ type: 'done', measurement }),
      (error: unknown) => post({ type: 'failed', message: messageOf(error) }),
    );
  };
  port.on('message', (message: ToThread) => {
    if (message.type === 'prepare') {
      current = { data: message.run, stop: new AbortController(), started: false };
      post({ type: 'ready' });
      return;
    }
    if (message.type === 'stop') current?.stop.abort();
    start(message.type === 'go' ? message.startAtNs : process.hrtime.bigint());
  });
}
