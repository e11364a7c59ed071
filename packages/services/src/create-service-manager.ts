import { errors, timedStep, type ServiceEndpoints, type ServiceName, findBinary } from '@bench/core';
import type { CounterReading, ServiceManager } from './service-manager.js';
import { clientAddress, serviceDefinitions } from './registry.js';
import type { RunningService, ServiceStartOptions } from './service.js';

/**
 * Starts each backing service the first time a scenario needs it, shares it between the targets
 * of the run, and stops them all at the end (or uses the server an environment URL names).
 */
export function createServiceManager(
  env: NodeJS.ProcessEnv = process.env,
  lookup: (binary: string, moreDirs?: readonly string[]) => string | undefined = findBinary,
  startOptions: ServiceStartOptions = {},
): ServiceManager {
  const pending = new Map<ServiceName, Promise<RunningService>>();
  const started: Array<RunningService & { readonly name: ServiceName; readonly named: boolean }> = [];

  const ensure = (name: ServiceName): Promise<RunningService> => {
    let service = pending.get(name);
    if (!service) {
      const definition = serviceDefinitions[name];
      const url = env[definition.urlVariable];
      service = timedStep('service', name, () => (url ? definition.connect(url) : definition.start(startOptions))).then((s) => {
        started.push({ ...s, name, named: url !== undefined });
        return s;
      });
      // a failed start is remembered: every later cell fails fast with the same reason
      pending.set(name, service);
    }
    return service;
  };

  return {
    async prepare(scenarios) {
      for (const name of new Set(scenarios.flatMap((s) => s.services))) {
        const definition = serviceDefinitions[name];
        if (!env[definition.urlVariable] && !lookup(definition.binary, definition.binaryDirs?.() ?? [])) {
          throw errors.serviceUnavailable(definition.title, definition.binary, definition.aptPackage, definition.urlVariable);
        }
      }
    },
    async endpointsFor(scenario) {
      const endpoints: ServiceEndpoints = {};
      for (const name of scenario.services) endpoints[name] = (await ensure(name)).endpoint;
      return endpoints;
    },
    async readCounters(scenario) {
      const counters: Record<string, CounterReading> = {};
      for (const name of scenario.services) counters[name] = await (await ensure(name)).readCounter();
      return counters;
    },
    async database(kind) {
      const service = await ensure(kind);
      if (!service.database) throw errors.serviceStart(serviceDefinitions[kind].title, 'it has no counters to read');
      return service.database;
    },
    // bench's own throwaway server with its password (bench serve is for looking at it); a server the user named by URL
    // without (its password is the user's)
    running: () =>
      started.map((s) => ({
        name: serviceDefinitions[s.name].title,
        address: s.named ? s.endpoint.url : clientAddress(s.name, s.endpoint),
      })),
    processGroups: () => started.flatMap((s) => (s.processGroup !== undefined ? [s.processGroup] : [])),
    async stopAll() {
      // wait for starts still in flight, so nothing they start is left behind
      await Promise.allSettled(pending.values());
      pending.clear();
      const stopping = started.splice(0).map((s) => s.stop());
      const failed = (await Promise.allSettled(stopping)).find((r) => r.status === 'rejected');
      if (failed?.status === 'rejected') throw failed.reason;
    },
  };
}
