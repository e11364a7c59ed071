import type { Protocol, ServiceEndpoints } from '@bench/core';

/** What the Node target hands its server process, through the BENCH_NODE_SERVER environment variable. */
/** One scenario the server serves: its folder, its handler module (default export: NodeScenarioModule), its mount. */
export interface NodeServedScenario {
  readonly dir: string;
  readonly handler: string;
  /** The prefix the runner serves it under (`/s/<name>`), when it shares its path with another. */
  readonly mount?: string;
}

export interface NodeServerConfig {
  /** Every scenario the one Fastify app serves, each at its own path. */
  readonly scenarios: readonly NodeServedScenario[];
  readonly host: string;
  readonly port: number;
  /** 0 = one process; N = node:cluster with N workers. */
  readonly workers: number;
  readonly pool: { readonly enabled: boolean; readonly size: number };
  readonly services: ServiceEndpoints;
  /** listen() backlog, sized to the planned concurrency. */
  readonly backlog: number;
  /** What Fastify serves: HTTP/1.1, over TLS, HTTP/2 over TLS, or cleartext HTTP/2. */
  readonly protocol: Protocol;
  /** Over TLS: the certificate and key files. */
  readonly tls?: { readonly certFile: string; readonly keyFile: string };
}

export const NODE_SERVER_ENV = 'BENCH_NODE_SERVER';
export const READY_LINE = 'bench-node-ready';
