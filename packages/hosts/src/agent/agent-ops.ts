import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  errors,
  localProcessHost,
  makePrivateDir,
  removeDir,
  sampleThisMachine,
  scenariosForOneStack,
  type HostSampler,
  type RunningTarget,
  type Scenario,
  type ServiceName,
  type TargetPlugin,
  type TargetStartOptions,
} from '@bench/core';
import { createServiceManager, type ServiceManager } from '@bench/services';
import type { AgentOp, AgentOps, RemoteStartOptions } from '../protocol/messages.js';
import { serveLinkProbe } from './link-probe.js';

/** What the agent serves from: the project in its folder (bench's own targets and scenarios, and a config's). */
export interface AgentProject {
  readonly targets: readonly TargetPlugin[];
  readonly scenarios: readonly Scenario[];
  /** `bench doctor`'s table on this host. */
  readonly doctor: () => Promise<string>;
}

type Handlers = { readonly [O in AgentOp]: (args: AgentOps[O]['args']) => Promise<AgentOps[O]['result']> };

/** The agent's state and its answer to each request; `stopAll` stops every stack and service it started. */
export interface AgentOpsState {
  readonly handlers: Handlers;
  stopAll(): Promise<void>;
}

const none = {} as Record<string, never>;

/** The one of `list` named `name`, or the error `unknown` makes of that name and the names known. */
function named<T extends { readonly name: string }>(
  list: readonly T[],
  name: string,
  unknown: (name: string, known: string[]) => Error,
): T {
  const found = list.find((item) => item.name === name);
  if (!found)
    throw unknown(
      name,
      list.map((item) => item.name),
    );
  return found;
}

/**
 * The requests a runner sends an agent, each done with the code a local run uses: targets started and stopped as
 * `bench run` does, services started by the same manager, process groups sampled from /proc here, and every look sent
 * back as it is taken (`send`). Stacks listen on `address`, the one the runner reached this host by.
 */
export function agentOps(project: AgentProject, address: string, send: (event: unknown) => void): AgentOpsState {
  const stacks = new Map<number, { running: RunningTarget; dirs: string[] }>();
  const samplers = new Map<number, HostSampler<string>>();
  let services: ServiceManager | undefined;
  let servicesExposed = false;
  let nextStack = 1;

  const target = (name: string): TargetPlugin => named(project.targets, name, errors.unknownTarget);
  const scenario = (name: string): Scenario => named(project.scenarios, name, errors.unknownScenario);
  // services listen on loopback for the stacks beside them, on this host's address for stacks on another host
  const manager = (exposed: boolean): ServiceManager => {
    if (services && servicesExposed !== exposed)
      throw errors.usage('the services of this host were started for stacks elsewhere and here at once: one role a host');
    servicesExposed = exposed;
    services ??= createServiceManager(process.env, undefined, exposed ? { host: address } : {});
    return services;
  };
  const needs = (names: readonly ServiceName[]) => ({ name: names.join('+'), services: [...names] });

  const startOptions = (options: RemoteStartOptions, dirs: string[]): TargetStartOptions => {
    const { tls, services: endpoints, ...rest } = options;
    let material: TargetStartOptions['tls'];
    if (tls) {
      // the run's certificate and key, made on the runner's host, in a private dir of this host's (the key 0600)
      const dir = makePrivateDir('tls');
      dirs.push(dir);
      const file = (name: string, text: string) => {
        const where = path.join(dir, name);
        writeFileSync(where, text, { mode: 0o600 });
        chmodSync(where, 0o600);
        return where;
      };
      material = { caFile: file('ca.crt', tls.ca), certFile: file('server.crt', tls.cert), keyFile: file('server.key', tls.key) };
    }
    return { ...rest, services: endpoints, host: address, ...(material ? { tls: material } : {}) };
  };

  const handlers: Handlers = {
    ping: async () => none,
    async available({ targets }) {
      const found: Record<string, Awaited<ReturnType<TargetPlugin['available']>>> = {};
      for (const name of targets) found[name] = await target(name).available();
      return found;
    },
    async 'start-target'({ target: name, scenarios: names, options }) {
      const plugin = target(name);
      const wanted = names.map(scenario);
      const [only] = wanted;
      if (!only) throw errors.usage(`start-target names no scenario for ${name}`);
      const dirs: string[] = [];
      const start = startOptions(options, dirs);
      let running: RunningTarget;
      try {
        running =
          wanted.length > 1 && plugin.startMany
            ? await plugin.startMany(scenariosForOneStack(wanted), start)
            : await plugin.start(only, start);
      } catch (error) {
        for (const dir of dirs) removeDir(dir);
        throw error;
      }
      const stack = nextStack++;
      stacks.set(stack, { running, dirs });
      void running.crashed.then((detail) => {
        if (stacks.has(stack)) send({ event: 'crashed', stack, detail });
      });
      return { stack, url: running.url, processGroups: running.processGroups, settings: running.settings };
    },
    async 'stop-target'({ stack }) {
      const entry = stacks.get(stack);
      stacks.delete(stack);
      if (entry) {
        try {
          await entry.running.stop();
        } finally {
          for (const dir of entry.dirs) removeDir(dir);
        }
      }
      return none;
    },
    async 'prepare-services'({ services: names, exposed }) {
      await manager(exposed).prepare([needs(names)]);
      return none;
    },
    async 'start-services'({ services: names, exposed }) {
      const m = manager(exposed);
      const endpoints = await m.endpointsFor(needs(names));
      return { endpoints, processGroups: m.processGroups() };
    },
    async 'read-counters'({ services: names }) {
      return services ? services.readCounters(needs(names)) : {};
    },
    async 'database-work'({ database, table }) {
      const probe = await manager(servicesExposed).database(database);
      return { counters: probe.counters, work: await probe.work(table) };
    },
    async 'database-world'({ database }) {
      const probe = await manager(servicesExposed).database(database);
      return { rows: [...(await probe.world())] };
    },
    'running-services': async () => services?.running().map((s) => ({ name: s.name, address: s.address })) ?? [],
    async 'stop-services'() {
      const stopping = services;
      services = undefined;
      await stopping?.stopAll();
      return none;
    },
    async 'sample-start'({ sampler: id, sets }) {
      samplers.set(
        id,
        sampleThisMachine(sets, (look) => {
          const found: Record<string, [number, number]> = {};
          for (const [name, set] of look.sets) found[name] = [set.ticks, set.rss];
          send({ event: 'look', sampler: id, sets: found });
        }),
      );
      return none;
    },
    async 'sample-stop'({ sampler: id }) {
      const sampler = samplers.get(id);
      samplers.delete(id);
      if (!sampler) throw errors.usage(`no sampler ${id} on this host`);
      const { sets, machineBusyPercent } = await sampler.stop();
      const result: AgentOps['sample-stop']['result'] = {
        sets: Object.fromEntries(
          Object.entries(sets).filter((entry) => entry[1] !== undefined),
        ) as AgentOps['sample-stop']['result']['sets'],
        ...(machineBusyPercent !== undefined ? { machineBusyPercent } : {}),
      };
      return result;
    },
    async pin({ groups, cpus }) {
      await localProcessHost.pinGroups(groups, cpus);
      return none;
    },
    resident: async ({ groups }) => ({ bytes: await localProcessHost.residentBytes(groups) }),
    'link-probe': async ({ milliseconds }) => ({ port: await serveLinkProbe(address, Math.min(Math.max(milliseconds, 100), 5000)) }),
    doctor: async () => ({ text: await project.doctor() }),
  };

  return {
    handlers,
    async stopAll() {
      await Promise.all([...samplers.values()].map((sampler) => sampler.stop()));
      samplers.clear();
      const running = [...stacks.values()];
      stacks.clear();
      await Promise.allSettled(
        running.map(async ({ running: r, dirs }) => {
          try {
            await r.stop();
          } finally {
            for (const dir of dirs) removeDir(dir);
          }
        }),
      );
      const stopping = services;
      services = undefined;
      await stopping?.stopAll().catch(() => undefined);
    },
  };
}
