import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { type LoadEngine, packageFile, whilePinned } from '@bench/core';
import { ENGINES_VERSION } from '../version.js';
import { runOnThreads } from '../threads/run-on-threads.js';
import { withDroppedRequests } from './dropped-requests.js';

const require = createRequire(import.meta.url);
const UNDICI_VERSION = (require('undici/package.json') as { version: string }).version;

const worker = pathToFileURL(packageFile(import.meta.url, 'dist', 'open-loop', 'open-loop-worker.js'));

/** bench's own open-loop generator (undici connections in this process): what --rate uses unless --engine k6. */
export const openLoopEngine = {
  name: 'open-loop',
  processNames: [],
  countsWireBytes: true,
  countsProgress: true,
  description: `bench's open loop (undici ${UNDICI_VERSION}, worker threads: --client-threads): constant arrival rate, latency from the intended send time`,
  clientThreads: true,
  // an arrival runs one pass of a flow on a connection (a virtual user: its once steps and captures stay with it)
  workloads: { templates: true, flows: true, mixes: true, thinkTime: false },
  // undici over TLS (HTTP/1.1, or HTTP/2 by ALPN), the server verified against the run's CA
  protocols: ['http1', 'https', 'h2'],
  // a set arrival rate is what only an open loop holds: a run that names no engine and gives --rate runs here
  chosenBy: 'rate',
  // what test/engines/conformance/ found undici counting wrongly
  miscounts: {
    'interim answers': 'fails the answer after a 100 Continue',
    'no body after a length': 'fails a 204 or a 304 that announces a length',
    'a repeated Content-Length': 'fails an answer whose Content-Length is said twice or as a list',
  },
  available: async () => ({ ok: true, version: `${ENGINES_VERSION} (undici ${UNDICI_VERSION})` }),
  supports(shape) {
    if (shape.requestsPerConnection !== undefined)
      return {
        ok: false,
        reason: 'the open-loop engine cannot close connections after n requests; --requests-per-connection needs the autocannon engine',
      };
    if (shape.rate === undefined) return { ok: false, reason: 'the open-loop engine needs --rate (requests per second)' };
    if (shape.requests !== undefined) return { ok: false, reason: 'an open loop runs for a duration (-d), not a request count' };
    return { ok: true };
  },
  // the open loop on its threads (--client-threads, the rate split over them), merged into one measurement
  run: (plan) => whilePinned(plan.cpus, async () => withDroppedRequests(await runOnThreads(worker, plan), plan.shape.connections)),
} satisfies LoadEngine;
