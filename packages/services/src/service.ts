import type { ServiceEndpoint, ServiceName } from '@bench/core';
import type { CounterReading } from './service-manager.js';
import type { DatabaseProbe } from './tfb-data.js';

/** A backing service that is running (started by bench, or named by URL). */
export interface RunningService {
  readonly endpoint: ServiceEndpoint;
  /** Process group of the server bench started; absent for a server named by URL. */
  readonly processGroup?: number;
  readCounter(): Promise<CounterReading>;
  /** A database's counters and TechEmpower's World table, for the TFB checks (MariaDB). */
  readonly database?: DatabaseProbe;
  stop(): Promise<void>;
}

export interface ServiceStartOptions {
  /** The address to listen on: 127.0.0.1 when absent; a database host's own address when the stacks run on another host. */
  readonly host?: string;
}

/** How bench starts, seeds and reads one kind of backing service. */
export interface ServiceDefinition {
  readonly name: ServiceName;
  readonly title: string;
  readonly binary: string;
  /** Folders off PATH where a package keeps the binary (PostgreSQL's /usr/lib/postgresql/<version>/bin). */
  readonly binaryDirs?: () => readonly string[];
  readonly aptPackage: string;
  /** Environment variable naming an existing server to use instead of starting one. */
  readonly urlVariable: string;
  /** Version of the installed binary, or undefined when it is missing. */
  version(): Promise<string | undefined>;
  /** Starts a private server on a free port of 127.0.0.1 (or of `host`, for stacks on other hosts), seeded, ready for queries. */
  start(options?: ServiceStartOptions): Promise<RunningService>;
  /** Uses an existing server named by URL; seeds it (idempotently). */
  connect(url: string): Promise<RunningService>;
}
