// The autocannon engine's worker thread: one run, its own event loop and its own bounded heap.
import { parentPort, workerData } from 'node:worker_threads';
import { fromPortable, type PortablePlan } from './portable-plan.js';
import { runAutocannon } from './run-autocannon.js';

export type WorkerMessage =
  | { readonly type: 'progress'; readonly elapsedSeconds: number; readonly requests: number }
  | { readonly type: 'done'; readonly measurement: Awaited<ReturnType<typeof runAutocannon>> }
  | { readonly type: 'failed'; readonly message: string };

const port = parentPort;
if (port) {
  const stop = new AbortController();
  port.on('message', (message: unknown) => {
    if (message === 'stop') stop.abort();
  });
  const post = (message: WorkerMessage) => port.postMessage(message);
  runAutocannon({
    ...fromPortable(workerData as PortablePlan),
    signal: stop.signal,
    onProgress: (p) => post({ type: 'progress', elapsedSeconds: p.elapsedSeconds, requests: p.requests }),
  }).then(
    (measurement) => post({ type: 'done', measurement }),
    (error: unknown) => post({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
}
