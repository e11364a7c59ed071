import { errors, type DatabaseKind, type ProcessHost, type Scenario, type ServiceEndpoints } from '@bench/core';
import type { DatabaseProbe } from './tfb-data.js';

/** A backend counter read before and after a measured run, to prove the backend was hit. */
export interface CounterReading {
  readonly counter: string;
  readonly value: number;
}

/** What a manager reads of a scenario: its name (for messages) and the services it needs. */
export type ServiceNeeds = Pick<Scenario, 'name' | 'services'>;

/** Starts the backing services scenarios need (Redis, memcached, MariaDB, PostgreSQL) and stops them at the end. */
export interface ServiceManager {
  /** Checks, before anything starts, that every service these scenarios need can be had. */
  prepare(scenarios: readonly ServiceNeeds[]): Promise<void>;
  /** Starts what the scenario needs (once per run) and returns how to reach it. */
  endpointsFor(scenario: ServiceNeeds): Promise<ServiceEndpoints>;
  /** Current counters of the services the scenario uses, keyed by service name. */
  readCounters(scenario: ServiceNeeds): Promise<Record<string, CounterReading>>;
  /** A database's probe (MariaDB or PostgreSQL, started if it is not yet): its counters and World, for TechEmpower's checks. */
  database(kind: DatabaseKind): Promise<DatabaseProbe>;
  /** Every service started or named so far, with an address a client can use (the password in it). */
  running(): ReadonlyArray<{ readonly name: string; readonly address: string }>;
  /** Process groups of the running services, for resource sampling, on `host`. */
  processGroups(): number[];
  /** The machine the services run on: this one when absent; another host when bench started them there. */
  readonly host?: ProcessHost;
  stopAll(): Promise<void>;
}

/** For runs whose scenarios need no backend. */
export const noServices: ServiceManager = {
  async prepare() {},
  async endpointsFor(scenario) {
    const [first] = scenario.services;
    if (first) throw errors.usage(`scenario "${scenario.name}" needs ${first}, but this run has no service manager`);
    return {};
  },
  async readCounters() {
    return {};
  },
  async database() {
    throw errors.usage('this run has no service manager, so no database to count queries in');
  },
  running: () => [],
  processGroups: () => [],
  async stopAll() {},
};
