import { readProcessTable } from '@bench/core';
import { coolDownSeconds, type CoolDownReading } from './soak.js';

const PAGE_SIZE = 4096;

/** The summed resident set of these process groups now (bytes). */
function rssOf(groups: readonly number[]): number {
  const wanted = new Set(groups);
  let rss = 0;
  for (const entry of readProcessTable()) if (wanted.has(entry.pgid)) rss += entry.rssPages * PAGE_SIZE;
  return rss;
}

/**
 * Waits a few seconds after the load stopped (3 after a run set to a minute or more, else 1) and reads
 * the server's memory: whether what it grew during the run comes back. Nothing to read off Linux
 * or for a target bench did not start.
 */
export async function coolDownReading(groups: readonly number[], runSeconds: number): Promise<CoolDownReading | undefined> {
  if (process.platform !== 'linux' || groups.length === 0) return undefined;
  const afterSeconds = coolDownSeconds(runSeconds);
  await new Promise((resolve) => setTimeout(resolve, afterSeconds * 1000));
  const rssBytes = rssOf(groups);
  return rssBytes > 0 ? { afterSeconds, rssBytes } : undefined;
}
