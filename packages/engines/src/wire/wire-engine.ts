import { pathToFileURL } from 'node:url';
import { choiceOption, type LoadEngine, packageFile, whilePinned } from '@bench/core';
import { withDroppedRequests } from '../open-loop/dropped-requests.js';
import { runOnThreads } from '../threads/run-on-threads.js';
import { ENGINES_VERSION } from '../version.js';
import { pipeliningOf } from './wire-run.js';
import { nativeCoreRefused, nativeLoop, nativeBodyRefuses } from './native-loop.js';
import { withResolvedHost } from './resolved-plan.js';

const worker = pathToFileURL(packageFile(import.meta.url, 'dist', 'wire', 'wire-worker.js'));

/** The wire engine's own options, merged into `bench run`'s. */
const wireOptions = {
  core: choiceOption(['native', 'js', 'net'], {
    flags: '--core <native|js|net>',
    description:
      "wire's connections: native (a C loop on epoll, no JavaScript call per read; prebuilt for linux-x64 and linux-arm64, else compiled at install where a C compiler is), js (libuv's handles) or net (the js core on Node's public net sockets, as where process.binding is refused; slower)",
    summary: "chooses wire's native or JavaScript connections",
    defaultText: 'native where built and the run allows it (plain HTTP, an exact body or none), else js',
  }),
};

/**
 * bench's own load engine, on a native loop in C or on libuv's TCP handles (Node's net sockets where those are
 * refused), as cheap per request as a C generator can be made in Node: the request encoded once, answers framed by a
 * parser that reads only what framing needs, bodies checked where they lie in one read buffer the thread's connections
 * share. Closed loop, or the open loop's schedule at --rate.
 */
export const wireEngine = {
  name: 'wire',
  processNames: [],
  countsWireBytes: true,
  countsProgress: true,
  description:
    "bench's own engine on a native C loop or libuv's TCP handles (worker threads: --client-threads): closed loop, or an open loop at --rate; -p pipelines",
  clientThreads: true,
  // -p (bench run's own option) makes wire the engine of a run that names none, and so does --rate, wire's open loop
  // being the cheapest here, wherever it can drive the run (docs/engines.md)
  pipelines: true,
  chosenBy: ['pipelining', 'rate'],
  options: wireOptions,
  available: async () => ({ ok: true, version: ENGINES_VERSION }),
  supports(shape, _request, expect, options) {
    if (pipeliningOf(shape) > 1 && !shape.keepAlive)
      return { ok: false, reason: '-p pipelines requests on a kept-alive connection; drop --no-keepalive or -p' };
    if (shape.rate !== undefined && shape.requests !== undefined)
      return { ok: false, reason: 'an open loop runs for a duration (-d), not a request count' };
    if (options?.core === 'native') {
      const refused = nativeLoop().missing ?? nativeBodyRefuses(expect);
      if (refused) return { ok: false, reason: nativeCoreRefused(refused) };
    }
    return { ok: true };
  },
  run: (plan) =>
    whilePinned(plan.cpus, async () =>
      withDroppedRequests(await runOnThreads(worker, await withResolvedHost(plan)), plan.shape.connections),
    ),
} satisfies LoadEngine;
