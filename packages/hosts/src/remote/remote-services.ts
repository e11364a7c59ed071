import type { DatabaseKind, DatabaseWork, ProcessHost, ServiceEndpoints } from '@bench/core';
import type { CounterReading, DatabaseProbe, ServiceManager, ServiceNeeds } from '@bench/services';
import type { AgentConnection } from './agent-connection.js';

/**
 * The backing services on another host, behind the manager a local run uses: started there by the agent once each,
 * read and stopped there. `exposed`: they listen on that host's address, for stacks on a third host (--database-host);
 * else on its loopback, for the stacks beside them (--server-host alone).
 */
export function remoteServices(connection: AgentConnection, processHost: ProcessHost, exposed: boolean): ServiceManager {
  let groups: number[] = [];
  let running: Array<{ name: string; address: string }> = [];
  const probes = new Map<DatabaseKind, DatabaseProbe>();
  const refresh = async () => {
    running = await connection.request('running-services', {});
  };
  return {
    host: processHost,
    async prepare(scenarios) {
      const services = [...new Set(scenarios.flatMap((s) => s.services))];
      if (services.length > 0) await connection.request('prepare-services', { services, exposed });
    },
    async endpointsFor(scenario: ServiceNeeds): Promise<ServiceEndpoints> {
      if (scenario.services.length === 0) return {};
      const started = await connection.request('start-services', { services: scenario.services, exposed });
      groups = started.processGroups;
      await refresh();
      return started.endpoints;
    },
    async readCounters(scenario: ServiceNeeds): Promise<Record<string, CounterReading>> {
      if (scenario.services.length === 0) return {};
      return connection.request('read-counters', { services: scenario.services });
    },
    async database(database) {
      let probe = probes.get(database);
      if (!probe) {
        await connection.request('start-services', { services: [database], exposed });
        await refresh();
        const { counters } = await connection.request('database-work', { database, table: 'world' });
        probe = {
          kind: database,
          counters,
          work: async (table): Promise<DatabaseWork> => (await connection.request('database-work', { database, table })).work,
          world: async () => new Map((await connection.request('database-world', { database })).rows),
        };
        probes.set(database, probe);
      }
      return probe;
    },
    running: () => running.map((s) => ({ name: `${s.name} on ${processHost.name}`, address: s.address })),
    processGroups: () => groups,
    async stopAll() {
      groups = [];
      running = [];
      await connection.request('stop-services', {});
    },
  };
}
