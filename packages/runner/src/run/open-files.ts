import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { errors } from '@bench/core';

export interface OpenFilesLimit {
  readonly soft: number;
  readonly hard: number;
}

// Client and servers share the host: each connection costs a descriptor on both sides, plus slack.
export function openFilesNeeded(maxConcurrency: number): number {
  return maxConcurrency * 2 + 512;
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
export function ensureOpenFiles(maxConcurrency: number): void {
  const needed = openFilesNeeded(maxConcurrency);
  const limit = readOpenFilesLimit();
  if (!limit || limit.soft >= needed) return;
  if (limit.hard < needed) throw errors.openFiles(needed, limit.soft, limit.hard);
  const hard = limit.hard === Infinity ? 'unlimited' : String(limit.hard);
  spawnSync('prlimit', ['--pid', String(process.pid), `--nofile=${needed}:${hard}`], { stdio: 'ignore' });
  const after = readOpenFilesLimit();
  if (!after || after.soft < needed) throw errors.openFiles(needed, limit.soft, limit.hard);
}
