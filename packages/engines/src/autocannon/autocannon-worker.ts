// The autocannon engine's worker thread: one run, its own event loop and its own bounded heap.
// It says 'ready' once loaded and starts its load at 'go', so several threads start together and
// none counts another's start-up in its run ('stop' before 'go' returns an empty run at once).
import { parentPort, workerData } from 'node:worker_threads';
import { fromPortable, type PortablePlan } from './portable-plan.js';
import { runAutocannon } from './run-autocannon.js';

export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'progress'; readonly elapsedSeconds: number; readonly requests: number }
  | { readonly type: 'done'; readonly measurement: Awaited<ReturnType<typeof runAutocannon>> }
  | { readonly type: 'failed'; readonly message: string };

const port = parentPort;
if (port) {
  const stop = new AbortController();
  const post = (message: WorkerMessage) => port.postMessage(message);
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    runAutocannon({
      ...fromPortable(workerData as PortablePlan),
      signal: stop.signal,
      onProgress: (p) => post({ type: 'progress', elapsedSeconds: p.elapsedSeconds, requests: p.requests }),
    }).then(
      (measurement) => post({ type: 'done', measurement }),
      (error: unknown) => post({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  };
  port.on('message', (message: unknown) => {
    if (message === 'stop') stop.abort();
    if (message === 'go' || message === 'stop') start();
  });
  post({ type: 'ready' });
}
