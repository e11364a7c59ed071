import { secondsOfTicks, type HostSampler, type ProcessHost, type ResourceSample, type SampleTick, type SetTick } from '@bench/core';
import type { SampleLook } from '../protocol/messages.js';
import type { AgentConnection } from './agent-connection.js';

const lookOf = <K extends string>(sets: SampleLook): ReadonlyMap<K, SetTick> =>
  new Map(Object.entries(sets).map(([name, [ticks, rss]]) => [name as K, { ticks, rss }]));

/**
 * Another host's processes as bench watches them: its agent samples them from its own /proc and sends each look as it
 * is taken, timed here on arrival (so a second of the server lines up with a second of the load, give or take the
 * link's delay); the totals (CPU over the span, peak memory, the busiest thread) are the agent's.
 */
export function remoteProcessHost(connection: AgentConnection, name: string): ProcessHost {
  let nextSampler = 1;
  return {
    name,
    local: false,
    cores: connection.hello.cores,
    sampleGroups<K extends string>(sets: Readonly<Record<K, readonly number[]>>): HostSampler<K> {
      const names = (Object.keys(sets) as K[]).filter((key) => sets[key].length > 0);
      const sampler = nextSampler++;
      const looks: Array<SampleTick<K>> = [];
      const started = process.hrtime.bigint();
      const stopListening = connection.onEvent((event) => {
        if (event.event === 'look' && event.sampler === sampler)
          looks.push({ atNs: process.hrtime.bigint(), sets: lookOf<K>(event.sets as SampleLook) });
      });
      const wanted = Object.fromEntries(names.map((key) => [key, sets[key]]));
      const opened = names.length > 0 ? connection.request('sample-start', { sampler, sets: wanted }) : Promise.resolve({});
      opened.catch(() => undefined);
      return {
        async stop() {
          try {
            if (names.length === 0) return { sets: {} };
            await opened;
            const { sets: found, machineBusyPercent } = await connection.request('sample-stop', { sampler });
            return {
              sets: found as Partial<Record<K, ResourceSample>>,
              ...(machineBusyPercent !== undefined ? { machineBusyPercent } : {}),
            };
          } catch {
            // a host that went away has no totals to give: its stack's crash (the same going away) fails the cell
            return { sets: {} };
          } finally {
            stopListening();
          }
        },
        perSecond: (startNs = started) => secondsOfTicks(looks, names, startNs),
      };
    },
    async pinGroups(groups, cpus) {
      await connection.request('pin', { groups, cpus });
    },
    async residentBytes(groups) {
      // a host that went away holds nothing of the stack any more
      return (await connection.request('resident', { groups }).catch(() => ({ bytes: 0 }))).bytes;
    },
  };
}
