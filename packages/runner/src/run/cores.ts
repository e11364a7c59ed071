import os from 'node:os';
import { expandCpuList } from '@bench/core';
import type { RunOptions } from '../options/declarations.js';

/** The cores the load generator may use: its client threads, or the CPUs it is pinned to; one otherwise (a single-threaded tool). */
export function generatorCores(options: Pick<RunOptions, 'clientThreads' | 'cpus'>): number {
  if (options.clientThreads !== undefined) return options.clientThreads;
  return options.cpus?.client ? Math.max(1, expandCpuList(options.cpus.client).length) : 1;
}

/**
 * The cores the server may use: those it is pinned to, or its host's (this machine's unless given; how many it can keep
 * busy at once, its threads tell).
 */
export function serverCores(options: Pick<RunOptions, 'cpus'>, hostCores: number = os.availableParallelism()): number {
  return options.cpus?.server ? Math.max(1, expandCpuList(options.cpus.server).length) : hostCores;
}
