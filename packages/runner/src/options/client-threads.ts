import type { RunOptions } from './declarations.js';

/** How many CPUs a taskset list names ("1", "0-3", "0,2,4-5"). */
export function cpusInList(list: string): number {
  let count = 0;
  for (const part of list.split(',')) {
    const [from, to] = part.split('-').map(Number);
    count += to === undefined ? 1 : Math.max(0, to - from!) + 1;
  }
  return Math.max(1, count);
}

/** The in-process generator's worker threads: --client-threads, else one per CPU the client is pinned to, else one. */
export const clientThreadsOf = (options: Pick<RunOptions, 'clientThreads' | 'cpus'>): number =>
  options.clientThreads ?? (options.cpus?.client ? cpusInList(options.cpus.client) : 1);
