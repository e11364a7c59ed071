import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { errors } from '../errors.js';

export interface OpenFilesLimit {
  readonly soft: number;
  readonly hard: number;
}

/**
 * Descriptors a run needs under this process's limit. The limit is per process, and the servers bench starts inherit
 * it: a connection costs one in the generator, and in a server fronted by nginx or Apache two (the client's and the
 * one to its backend), so twice the connections, plus slack. A server bench did not start (--url) keeps its own
 * limit: the generator's connections and the slack.
 */
export function openFilesNeeded(maxConcurrency: number, startsServers = true): number {
  return maxConcurrency * (startsServers ? 2 : 1) + 512;
}

export function readOpenFilesLimit(): OpenFilesLimit | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const [soft, hard] = (line ?? '')
      .split(/\s{2,}/)
      .slice(1, 3)
      .map((v) => (v === 'unlimited' ? Infinity : Number(v)));
    if (soft === undefined || hard === undefined || Number.isNaN(soft) || Number.isNaN(hard)) return undefined;
    return { soft, hard };
  } catch {
    return undefined;
  }
}

/**
 * Raises this process's soft open-files limit (children inherit it) when the run needs more,
 * with prlimit on our own pid; fails with the exact command to run when the hard limit is too low.
 */
export function ensureOpenFiles(maxConcurrency: number, startsServers = true): void {
  const needed = openFilesNeeded(maxConcurrency, startsServers);
  const limit = readOpenFilesLimit();
  if (!limit || limit.soft >= needed) return;
  if (limit.hard < needed) throw errors.openFiles(needed, limit.soft, limit.hard);
  const hard = limit.hard === Infinity ? 'unlimited' : String(limit.hard);
  spawnSync('prlimit', ['--pid', String(process.pid), `--nofile=${needed}:${hard}`], { stdio: 'ignore' });
  const after = readOpenFilesLimit();
  if (!after || after.soft < needed) throw errors.openFiles(needed, limit.soft, limit.hard);
}
