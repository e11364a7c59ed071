import { createRequire } from 'node:module';
import type { LoadEngine } from '@bench/core';
import { whilePinned } from '@bench/core';
import { runOnThreads } from '../threads/run-on-threads.js';

const require = createRequire(import.meta.url);
// client-setup.ts reaches into autocannon's Client internals: the version is pinned exactly in package.json.
const AUTOCANNON_VERSION = (require('autocannon/package.json') as { version: string }).version;

const worker = new URL('./autocannon-worker.js', import.meta.url);

/** autocannon, driven through its API in a worker thread of bench's process: the default engine. */
export const autocannonEngine: LoadEngine = {
  name: 'autocannon',
  processNames: [],
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
  run: (plan) => whilePinned(plan.cpus, () => runOnThreads(worker, plan)),
};
