import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LoadEngine } from '@bench/core';
import { packageFile, whilePinned } from '@bench/core';
import { runOnThreads } from '../threads/run-on-threads.js';

const require = createRequire(import.meta.url);
// client-setup.ts reaches into autocannon's Client internals: the version is pinned exactly in package.json.
const AUTOCANNON_VERSION = (require('autocannon/package.json') as { version: string }).version;

const worker = pathToFileURL(packageFile(import.meta.url, 'dist', 'autocannon', 'autocannon-worker.js'));

/** autocannon, driven through its API in a worker thread of bench's process: the default engine. */
export const autocannonEngine = {
  name: 'autocannon',
  processNames: [],
  countsWireBytes: true,
  countsProgress: true,
  description: 'autocannon in-process (Node, worker threads: --client-threads), closed loop',
  clientThreads: true,
  // bench's cursor in each client: generated values, flows with captures and once steps, mixes, think time
  workloads: { templates: true, flows: true, mixes: true, thinkTime: true },
  // HTTP/1.1 over TLS, the server verified against the run's CA (verify-tls.ts); autocannon has no HTTP/2
  protocols: ['http1', 'https'],
  // autocannon's own CLI with its JSON summary, its worker threads as bench's --client-threads
  bareTool: {
    command: (url, c, d, threads) => ({
      command: process.execPath,
      args: [
        path.join(path.dirname(require.resolve('autocannon/package.json')), 'autocannon.js'),
        '-c',
        String(c),
        '-d',
        String(d),
        ...(threads > 1 ? ['-w', String(threads)] : []),
        '-j',
        url,
      ],
    }),
    parse(stdout) {
      const json = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { requests: { total: number }; duration: number };
      return { rps: json.requests.total / json.duration, requests: json.requests.total };
    },
  },
  // what test/engines/conformance/ found it counting wrongly
  miscounts: {
    'interim answers': 'miscounts the answers after an interim one (100, 103): as wrong bodies, or as answers of their own',
    'no body after a length': 'fails a 204, a 304 or an answer to HEAD that announces a length',
    'a repeated Content-Length': 'miscounts the bodies of answers whose Content-Length is a list ("11, 11")',
    'answers to no request': 'counts answers the server sent to no request as answers (a server that answers twice reads as twice as fast)',
  },
  available: async () => ({ ok: true, version: AUTOCANNON_VERSION }),
  supports(shape) {
    if (shape.rate !== undefined)
      return {
        ok: false,
        reason:
          "autocannon's own rate limit sends each connection's quota in bursts and misreports latency; --rate uses bench's open-loop engine",
      };
    if (shape.timeoutSeconds < 1)
      return { ok: false, reason: `autocannon times out after 1 s at the least (--timeout ${shape.timeoutSeconds}); use --engine wire` };
    return { ok: true };
  },
  // the generator is this process (its workers), pinned for the run when the plan says so; --client-threads
  // spreads the connections over several workers, each with its own event loop and histogram, merged after
  run: (plan) => whilePinned(plan.cpus, () => runOnThreads(worker, plan)),
} satisfies LoadEngine;
