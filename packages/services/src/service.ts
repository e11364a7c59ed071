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

/** How bench starts, seeds and reads one kind of backing service. */
export interface ServiceDefinition {
  readonly name: ServiceName;
  readonly title: string;
  readonly binary: string;
  readonly aptPackage: string;
  /** Environment variable naming an existing server to use instead of starting one. */
  readonly urlVariable: string;
  /** Version of the installed binary, or undefined when it is missing. */
  version(): Promise<string | undefined>;
  /** Starts a private server on a free loopback port, seeded, ready for queries. */
  start(): Promise<RunningService>;
  /** Uses an existing server named by URL; seeds it (idempotently). */
  connect(url: string): Promise<RunningService>;
}
