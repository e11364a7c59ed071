import { localProcessHost, type ProcessHost } from './process-host.js';
import { coolDownSeconds, type CoolDownReading } from './soak.js';

/**
 * Waits a few seconds after the load stopped (3 after a run set to a minute or more, else 1) and reads
 * the server's memory: whether what it grew during the run comes back. Nothing to read off Linux
 * or for a target bench did not start.
 */
export async function coolDownReading(
  groups: readonly number[],
  runSeconds: number,
  host: ProcessHost = localProcessHost,
): Promise<CoolDownReading | undefined> {
  if ((host.local && process.platform !== 'linux') || groups.length === 0) return undefined;
  const afterSeconds = coolDownSeconds(runSeconds);
  await new Promise((resolve) => setTimeout(resolve, afterSeconds * 1000));
  const rssBytes = await host.residentBytes(groups);
  return rssBytes > 0 ? { afterSeconds, rssBytes } : undefined;
}
