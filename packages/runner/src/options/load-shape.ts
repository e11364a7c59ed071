import type { LoadShape } from '@bench/core';
import { clientThreadsOf } from './client-threads.js';
import type { RunOptions } from './declarations.js';

/** How a run's options drive one cell: its connections, bound (time or count), keep-alive, rate, threads and pipelining. */
export function loadShape(options: RunOptions, connections: number, bound: Pick<LoadShape, 'durationSeconds' | 'requests'>): LoadShape {
  return {
    connections,
    ...bound,
    ...(options.rate !== undefined ? { rate: options.rate } : {}),
    keepAlive: options.keepAlive,
    ...(options.requestsPerConnection !== undefined ? { requestsPerConnection: options.requestsPerConnection } : {}),
    timeoutSeconds: options.timeoutSeconds,
    ...(clientThreadsOf(options) > 1 ? { threads: clientThreadsOf(options) } : {}),
    ...((options.pipelining ?? 1) > 1 ? { pipelining: options.pipelining } : {}),
  };
}

/** A cell's measured bound: -n requests, else -d seconds (ten when neither is given). */
export const measuredBound = (options: RunOptions): Pick<LoadShape, 'durationSeconds' | 'requests'> =>
  options.requests !== undefined ? { requests: options.requests } : { durationSeconds: options.durationSeconds ?? 10 };
