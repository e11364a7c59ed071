import os from 'node:os';
import { expandCpuList, type ResourceSample } from '@bench/core';
import type { RunOptions } from '../options/declarations.js';

/** The cores the load generator may use: its client threads, or the CPUs it is pinned to; one otherwise (a single-threaded tool). */
export function generatorCores(options: Pick<RunOptions, 'clientThreads' | 'cpus'>): number {
  if (options.clientThreads !== undefined) return options.clientThreads;
  return options.cpus?.client ? Math.max(1, expandCpuList(options.cpus.client).length) : 1;
}

/** The cores the server may use: one per process it ran, at most the CPUs it may run on (those it is pinned to, or the machine's). */
export function serverCores(server: ResourceSample, options: Pick<RunOptions, 'cpus'>): number {
  const cpus = options.cpus?.server ? expandCpuList(options.cpus.server).length : os.availableParallelism();
  return Math.max(1, Math.min(server.processes, cpus));
}
