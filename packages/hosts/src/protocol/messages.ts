import type {
  Availability,
  DatabaseKind,
  DatabaseWork,
  TfbTable,
  HostInfo,
  Protocol,
  ResourceSample,
  ServiceEndpoints,
  ServiceName,
} from '@bench/core';

// The agent's protocol: JSON, one message a line, on the SSH session's standard input (runner -> agent) and output
// (agent -> runner). The agent speaks first (hello); then each request carries an id its reply repeats, and the agent
// sends events (a sampler's looks, a stack that died) unasked. A new version of the protocol is a new number: a runner
// and an agent of different bench versions are refused before anything starts, so neither reads the other's guesses.

/** The protocol's version; bumped by any change a reader of the old one would misread. */
export const AGENT_PROTOCOL = 2;

/** The longest line either end sends or reads (a reply of `bench doctor`'s table is the longest, a few KB). */
export const MAX_LINE_BYTES = 1 << 20;

/** What the agent says first: who it is, and the address its SSH session arrived at (where its servers listen). */
export interface AgentHello {
  readonly event: 'hello';
  readonly protocol: number;
  readonly bench: string;
  readonly host: HostInfo;
  /** The CPUs the agent (and so every stack it starts) may run on: fewer than the machine's when pinned. */
  readonly cores: number;
  readonly address: string;
}

/** How a target starts on the agent's host: a run's start options, with the TLS material carried as PEM text. */
export interface RemoteStartOptions {
  readonly port?: number;
  readonly workers?: number;
  readonly poolSize?: number;
  readonly maxConcurrency?: number;
  readonly warmUp?: boolean;
  readonly env?: Readonly<Record<string, string>>;
  readonly protocol?: Protocol;
  readonly tls?: { readonly ca: string; readonly cert: string; readonly key: string };
  readonly services: ServiceEndpoints;
}

/** A stack the agent started: its handle for later requests, and what a local start returns. */
export interface RemoteStack {
  readonly stack: number;
  readonly url: string;
  readonly processGroups: readonly number[];
  readonly settings: Readonly<Record<string, string | number | boolean>>;
}

/** Every request, by name: what it carries and what its reply holds. */
export interface AgentOps {
  /** A heartbeat: an agent that hears nothing for a while takes its runner for gone and stops everything. */
  ping: { args: Record<string, never>; result: Record<string, never> };
  available: { args: { targets: readonly string[] }; result: Record<string, Availability> };
  'start-target': { args: { target: string; scenarios: readonly string[]; options: RemoteStartOptions }; result: RemoteStack };
  'stop-target': { args: { stack: number }; result: Record<string, never> };
  /**
   * Fails, with that host's apt-get line, when a service these scenarios need cannot be had there. `exposed`: the
   * services listen on the agent's address, for stacks on another host; else on its loopback, for stacks beside them.
   */
  'prepare-services': { args: { services: readonly ServiceName[]; exposed: boolean }; result: Record<string, never> };
  'start-services': {
    args: { services: readonly ServiceName[]; exposed: boolean };
    result: { endpoints: ServiceEndpoints; processGroups: number[] };
  };
  'read-counters': { args: { services: readonly ServiceName[] }; result: Record<string, { counter: string; value: number }> };
  'database-work': { args: { database: DatabaseKind; table: TfbTable }; result: { counters: string; work: DatabaseWork } };
  'database-world': { args: { database: DatabaseKind }; result: { rows: Array<[number, number]> } };
  'running-services': { args: Record<string, never>; result: Array<{ name: string; address: string }> };
  'stop-services': { args: Record<string, never>; result: Record<string, never> };
  'sample-start': { args: { sampler: number; sets: Record<string, readonly number[]> }; result: Record<string, never> };
  'sample-stop': {
    args: { sampler: number };
    result: { sets: Record<string, ResourceSample>; machineBusyPercent?: number };
  };
  pin: { args: { groups: readonly number[]; cpus: string }; result: Record<string, never> };
  resident: { args: { groups: readonly number[] }; result: { bytes: number } };
  /** Opens a port on the agent's address that sends zeros for `milliseconds` to the first connection, then closes. */
  'link-probe': { args: { milliseconds: number }; result: { port: number } };
  doctor: { args: Record<string, never>; result: { text: string } };
}

export type AgentOp = keyof AgentOps;

/** One look of a sampler: each set's CPU ticks since the look before, and its resident set (bytes). */
export type SampleLook = Record<string, readonly [ticks: number, rss: number]>;

export type AgentRequest = { readonly [O in AgentOp]: { readonly id: number; readonly op: O } & AgentOps[O]['args'] }[AgentOp];

/** A request's outcome: its result, or the error the agent met, as coded as bench's own. */
export type AgentReply =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | {
      readonly id: number;
      readonly ok: false;
      readonly error: { readonly code: string; readonly message: string; readonly exitCode: number };
    };

/** What the agent sends unasked. */
export type AgentEvent =
  | AgentHello
  | { readonly event: 'look'; readonly sampler: number; readonly sets: SampleLook }
  | { readonly event: 'crashed'; readonly stack: number; readonly detail: string };
