import type { ProcessHost } from './measure/process-host.js';
import type { Protocol } from './tls/protocol.js';
import type { TlsMaterial } from './tls/run-certificates.js';
import type { Scenario, ServiceName } from './scenario.js';

/** Whether a target can run on this machine, and what it found or lacks. */
export interface Availability {
  readonly ok: boolean;
  /** Versions of the components found, e.g. { node: '20.20.2', fastify: '5.6.0' }. */
  readonly versions?: Readonly<Record<string, string>>;
  /** Why not, in one line. */
  readonly reason?: string;
  /** Debian packages that would make it available. */
  readonly aptPackages?: readonly string[];
}

/** Whether a target implements a scenario; `reason` says why not, `aptPackages` what would make it (a driver, a cache). */
export type Support = { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly aptPackages?: readonly string[] };

/** How to reach a backing service the runner started (or the user named by URL). */
export interface ServiceEndpoint {
  readonly host: string;
  readonly port: number;
  readonly user?: string;
  readonly password?: string;
  readonly database?: string;
  /** The URL form, e.g. redis://127.0.0.1:6390 */
  readonly url: string;
}

export type ServiceEndpoints = Partial<Record<ServiceName, ServiceEndpoint>>;

export interface TargetStartOptions {
  /** Address to listen on; 127.0.0.1 when absent (only `bench serve --host` sets another, for a client on another host). */
  readonly host?: string;
  /** Port to listen on; a free one is chosen when absent. */
  readonly port?: number;
  /** Worker processes for multi-process targets; defaults to the number of cores. */
  readonly workers?: number;
  /** Connections per process in a backend pool. */
  readonly poolSize?: number;
  /** The highest concurrency the run will drive, so a server can size its listen backlog. */
  readonly maxConcurrency?: number;
  /** Backing services the scenario needs, already running. */
  readonly services: ServiceEndpoints;
  /**
   * Load follows this start (bench run, bench serve): a target whose runtime warms up (a JIT) drives
   * itself before start() resolves. bench verify, which checks one answer, leaves it out.
   */
  readonly warmUp?: boolean;
  /** More environment for the stack's processes (--profile sets NODE_OPTIONS so a Node process can be profiled). */
  readonly env?: Readonly<Record<string, string>>;
  /** What the server must speak (`--protocol`); HTTP/1.1 when absent. */
  readonly protocol?: Protocol;
  /** Over TLS: the certificate and key the server presents, signed by the run's own CA. */
  readonly tls?: TlsMaterial;
}

export interface RunningTarget {
  /** Base URL, e.g. http://127.0.0.1:41234 (the scenario path is appended by the runner). */
  readonly url: string;
  /** The process group ids that make up the stack (for sampling and cleanup), on `host`. */
  readonly processGroups: readonly number[];
  /** The machine its processes run on: this one when absent; another host when bench started it there (--server-host). */
  readonly host?: ProcessHost;
  /**
   * The folder the app's code is in (an app target's cwd): a profile names the app's files relative to it, so two
   * checkouts of one app name a function alike. Absent for a built-in target, whose files are named by name alone.
   */
  readonly folder?: string;
  /** Settings that shape the numbers (workers, pool size, versions), recorded in every result. */
  readonly settings: Readonly<Record<string, string | number | boolean>>;
  /** Settles with what was seen when a process of the stack exits before stop() was called; pending otherwise. */
  readonly crashed: Promise<string>;
  /** Stops every process of the stack: TERM, then KILL after a grace period. */
  stop(): Promise<void>;
}

/** How bench puts a target's state back before every cell: a command of the user's, or files restored from a copy. */
export interface TargetReset {
  /** One line for reports: what is reset and how ("files data/items.json restored"). */
  readonly description: string;
  /** 'stopped': bench stops the target, resets, and starts it again; 'running': it resets with the target up. */
  readonly whileTarget: 'stopped' | 'running';
  /** Once, before the run's first cell: takes the copy that reset() restores. */
  prepare(): Promise<void>;
  reset(): Promise<void>;
  /** Once, when the run ends: removes the copy. */
  dispose(): Promise<void>;
}

/** A target plugin: how to start one stack serving one scenario (or, with startMany, several at once), and stop it. */
export interface TargetPlugin {
  readonly name: string;
  /** The registry name of the target this one is, under another name (`bench noise` runs one target twice as A and B). */
  readonly aliasOf?: string;
  readonly language: string;
  readonly description: string;
  /**
   * What the command line of every process start() may launch contains (a program or script name),
   * so leak checks can find any that outlive the run; [] when it starts none. Every built-in target sets it.
   */
  readonly processNames?: readonly string[];
  supports(scenario: Scenario): Support;
  available(): Promise<Availability>;
  start(scenario: Scenario, options: TargetStartOptions): Promise<RunningTarget>;
  /**
   * Optional: one stack serving every scenario of the list at once, each at its own `request.path` (under its
   * `mount` where the runner gave it one), with the services of them all; `bench verify` starts a target once for
   * all the scenarios it checks this way. Absent: the runner calls start() once per scenario.
   */
  startMany?(scenarios: readonly Scenario[], options: TargetStartOptions): Promise<RunningTarget>;
  /** What bench runs before every cell and round so each sees the same data; absent: cells see earlier cells' writes. */
  readonly reset?: TargetReset;
  /** The protocols its real server can serve here (`--protocol`); HTTP/1.1 only when absent. */
  readonly protocols?: readonly Protocol[];
  /** Why it serves no other protocol, for `bench list` and a run that skips it. */
  readonly protocolsNote?: string;
}
