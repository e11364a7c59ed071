import os from 'node:os';
import { pinProcessGroups } from './cpu-affinity.js';
import { watchMachineCpu } from './machine-cpu.js';
import { readProcessTable } from '../process/proc-table.js';
import { sampleProcessGroups, type ResourceSecond, type SampleTick } from './resource-sampler.js';
import type { ResourceSample } from '../result.js';

const PAGE_SIZE = 4096;

/** A sampler of a host's process groups, stopped with a look that may cross a network. */
export interface HostSampler<K extends string> {
  /** Stops sampling: for each named set, CPU (percent of one core) and peak RSS; and how busy the host's cores were. */
  stop(): Promise<{ readonly sets: Partial<Record<K, ResourceSample>>; readonly machineBusyPercent?: number }>;
  /** Each set's seconds so far, counted from `startNs` (a process.hrtime.bigint() reading of this process). */
  perSecond(startNs?: bigint): Partial<Record<K, ResourceSecond[]>>;
}

/**
 * The machine a stack's processes run on, as bench watches them: this one through /proc, another host through the
 * bench agent bench started there. Process group ids are the host's own.
 */
export interface ProcessHost {
  /** How results and bound lines name it: the host's name. */
  readonly name: string;
  /** Whether it is the machine bench (and its load generator) runs on. */
  readonly local: boolean;
  /** The CPUs its processes may use. */
  readonly cores: number;
  /** Samples named sets of its process groups, and its cores' busy share over the same span. */
  sampleGroups<K extends string>(sets: Readonly<Record<K, readonly number[]>>): HostSampler<K>;
  /** Pins every process of these groups to these CPUs of the host (taskset lists). */
  pinGroups(groups: readonly number[], cpus: string): Promise<void>;
  /** The summed resident set of these groups now (bytes). */
  residentBytes(groups: readonly number[]): Promise<number>;
}

/** The summed resident set of these process groups on this machine now (bytes). */
export function localResidentBytes(groups: readonly number[]): number {
  const wanted = new Set(groups);
  let rss = 0;
  for (const entry of readProcessTable()) if (wanted.has(entry.pgid)) rss += entry.rssPages * PAGE_SIZE;
  return rss;
}

/**
 * Samples process groups of this machine and its cores' busy share over the same span; `onTick` sees each look as
 * it is taken (the agent sends them to a runner on another host).
 */
export function sampleThisMachine<K extends string>(
  sets: Readonly<Record<K, readonly number[]>>,
  onTick?: (tick: SampleTick<K>) => void,
): HostSampler<K> {
  const sampler = sampleProcessGroups(sets, 250, onTick);
  const machine = watchMachineCpu();
  return {
    async stop() {
      const sampled = sampler.stop();
      const busy = machine.stop();
      return { sets: sampled, ...(busy !== undefined ? { machineBusyPercent: busy } : {}) };
    },
    perSecond: (startNs) => sampler.perSecond(startNs),
  };
}

/** This machine. */
export const localProcessHost: ProcessHost = {
  name: os.hostname(),
  local: true,
  cores: os.availableParallelism(),
  sampleGroups: (sets) => sampleThisMachine(sets),
  async pinGroups(groups, cpus) {
    pinProcessGroups(groups, cpus);
  },
  async residentBytes(groups) {
    return localResidentBytes(groups);
  },
};

/** Process groups on one host. */
export interface HostGroups {
  readonly host: ProcessHost;
  readonly groups: readonly number[];
}

/**
 * Samples named sets that may live on different hosts: one sampler per host (one /proc scan a tick on each), their
 * sets merged; the machine busy share is each host's, by host name.
 */
export function sampleAcrossHosts<K extends string>(
  sets: Readonly<Record<K, HostGroups>>,
): {
  stop(): Promise<{ readonly sets: Partial<Record<K, ResourceSample>>; readonly busyByHost: ReadonlyMap<ProcessHost, number> }>;
  perSecond(startNs?: bigint): Partial<Record<K, ResourceSecond[]>>;
} {
  const byHost = new Map<ProcessHost, Record<string, readonly number[]>>();
  for (const [name, { host, groups }] of Object.entries(sets) as Array<[K, HostGroups]>) {
    const own = byHost.get(host) ?? {};
    own[name] = groups;
    byHost.set(host, own);
  }
  const samplers = [...byHost].map(([host, own]) => ({ host, sampler: host.sampleGroups(own) }));
  return {
    async stop() {
      const stopped = await Promise.all(samplers.map(async ({ host, sampler }) => ({ host, ...(await sampler.stop()) })));
      const busyByHost = new Map<ProcessHost, number>();
      let merged: Partial<Record<K, ResourceSample>> = {};
      for (const { host, sets: found, machineBusyPercent } of stopped) {
        merged = { ...merged, ...(found as Partial<Record<K, ResourceSample>>) };
        if (machineBusyPercent !== undefined) busyByHost.set(host, machineBusyPercent);
      }
      return { sets: merged, busyByHost };
    },
    perSecond(startNs) {
      let merged: Partial<Record<K, ResourceSecond[]>> = {};
      for (const { sampler } of samplers) merged = { ...merged, ...(sampler.perSecond(startNs) as Partial<Record<K, ResourceSecond[]>>) };
      return merged;
    },
  };
}
