import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { listGroupMembers, protocolRequest, type Transport } from '@bench/core';
import { APACHE_MAX_REQUEST_WORKERS } from '../support/apache-config.js';
import { cores } from '../support/probe.js';

/** mod_fcgid's own default of FcgidMaxProcessesPerClass: what an untuned mod_fcgid (article 003's) grows to at most. */
export const FCGID_DEFAULT_MAX_PER_CLASS = 100;

/** The script the pool is spawned with: it holds its php-cgi for a while, so that requests sent at once each need one. */
export const POOL_SCRIPT = 'bench-fcgid-pool.php';
const POOL_HOLD_MS = 2000;
const POOL_TIMEOUT_MS = 30_000;

/**
 * php-cgi processes for a run at `maxConcurrency` connections: `--workers`, else one per connection (at least one
 * per core, at most mod_fcgid's default cap and Apache's workers). A request that finds every php-cgi busy sleeps a
 * whole second in mod_fcgid before it asks again (fcgid_bridge.c), so a pool smaller than the connections puts
 * one-second waits inside the measured run, as many as chance makes collide: measured at -c 10 with 2 processes,
 * 22-28 waits of 1-4 s in each 5 s run.
 */
export function fcgidPoolSize(workers: number | undefined, maxConcurrency: number | undefined): number {
  if (workers !== undefined) return workers;
  return Math.min(FCGID_DEFAULT_MAX_PER_CLASS, APACHE_MAX_REQUEST_WORKERS, Math.max(cores(), maxConcurrency ?? 0));
}

/** mod_fcgid's directives for a pool of `size` php-cgi processes kept for the whole run, spawned as fast as asked. */
export function fcgidPoolDirectives(size: number): string[] {
  return [
    `FcgidMaxProcesses ${size}`,
    `FcgidMaxProcessesPerClass ${size}`,
    // none reaped while idle (between the warm-up and the measured run, or a quiet second of a long one)
    `FcgidMinProcessesPerClass ${size}`,
    // each spawn adds 1 to the class's score and a spawn is refused from 10 (the default), one point fading a
    // second: without room for the whole pool, the 11th process came 1 s after the 10th, the 12th 1 s later
    `FcgidSpawnScoreUpLimit ${size + 10}`,
  ];
}

/** Writes the script that holds a php-cgi, beside the scenario's (the same FcgidWrapper, so the same class of processes). */
export function writePoolScript(docroot: string): void {
  writeFileSync(path.join(docroot, POOL_SCRIPT), `<?php\nusleep(${POOL_HOLD_MS * 1000});\necho 'held';\n`);
}

const phpCgiProcesses = (processGroups: readonly number[]) =>
  processGroups.flatMap((group) => listGroupMembers(group)).filter((p) => p.comm.startsWith('php-cgi')).length;

export interface SpawnedPool {
  readonly processes: number;
  readonly seconds: number;
}

/**
 * Spawns the whole pool before load follows: mod_fcgid starts php-cgi only when a request finds none idle, so a stack
 * handed over cold grows its pool inside the warm-up and, by chance, the measured run. `size` requests held at once
 * each need a process of their own; sent again until the stack's process groups hold `size` php-cgi processes.
 */
export async function spawnPool(url: string, processGroups: readonly number[], size: number, transport: Transport): Promise<SpawnedPool> {
  const started = Date.now();
  while (phpCgiProcesses(processGroups) < size) {
    if (Date.now() - started > POOL_TIMEOUT_MS)
      throw new Error(`mod_fcgid spawned ${phpCgiProcesses(processGroups)} of ${size} php-cgi processes in ${POOL_TIMEOUT_MS / 1000} s`);
    const answers = await Promise.all(
      Array.from({ length: size }, () => protocolRequest(`${url}/${POOL_SCRIPT}`, {}, transport, POOL_TIMEOUT_MS)),
    );
    const failed = answers.find((answer) => answer.status !== 200);
    if (failed) throw new Error(`spawning the php-cgi pool: HTTP ${failed.status} from ${POOL_SCRIPT}`);
  }
  return { processes: phpCgiProcesses(processGroups), seconds: Math.round((Date.now() - started) / 100) / 10 };
}
