import type { ServiceEndpoints } from '@bench/core';

/** What the Node target hands its server process, through the BENCH_NODE_SERVER environment variable. */
export interface NodeServerConfig {
  readonly scenarioDir: string;
  /** Compiled handler module of the scenario (default export: NodeScenarioModule). */
  readonly handler: string;
  readonly host: string;
  readonly port: number;
  /** 0 = one process; N = node:cluster with N workers. */
  readonly workers: number;
  readonly pool: { readonly enabled: boolean; readonly size: number };
  readonly services: ServiceEndpoints;
  /** listen() backlog, sized to the planned concurrency. */
  readonly backlog: number;
}

export const NODE_SERVER_ENV = 'BENCH_NODE_SERVER';
export const READY_LINE = 'bench-node-ready';
