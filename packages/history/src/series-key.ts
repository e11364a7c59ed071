import { createHash } from 'node:crypto';
import { engineOf, type CellResult, type MachineInfo, type RunDocument } from '@bench/core';
import type { MachineFingerprint, SeriesKey } from './history-entry.js';

// Keys sorted at every depth, so the same options always give the same id.
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
}

/**
 * The run options of one cell that change what it measures; the cell's scenario, target and concurrency are keyed apart.
 * The target's own settings are not: they hold versions (an upgrade is a change to find in the series, not a new one)
 * and values measured at start (a JIT warm-up's length).
 */
export function measurementOptions(doc: RunDocument, result: CellResult): Record<string, unknown> {
  const options = doc.options;
  return canonical({
    keepAlive: result.keepAlive,
    // absent for HTTP/1.1, so the series of runs from before --protocol keep their ids
    protocol: result.protocol,
    bound: `${result.bound.kind}=${result.bound.value}`,
    warmupSeconds: result.warmupSeconds,
    method: result.method,
    rate: result.rate?.target,
    generators: result.generators?.count,
    cpus: result.cpus,
    requestsPerConnection: options['requestsPerConnection'],
    workers: options['workers'],
    poolSize: options['poolSize'],
  }) as Record<string, unknown>;
}

export function seriesKeyOf(doc: RunDocument, result: CellResult): SeriesKey {
  return {
    scenario: result.scenario,
    target: result.target,
    concurrency: result.concurrency,
    engine: engineOf(result),
    options: measurementOptions(doc, result),
  };
}

export function machineFingerprint(machine: MachineInfo): MachineFingerprint {
  return { hostname: machine.hostname, cpuModel: machine.cpuModel, cores: machine.cpus, memoryBytes: machine.memoryBytes };
}

/**
 * The machine as a series knows it: CPU model, cores and memory in whole GiB, not the hostname, so a
 * CI runner that gets a new hostname (and a few MB more or less) each job stays in the same series.
 */
export function machineClass(machine: MachineFingerprint): Record<string, unknown> {
  return { cpuModel: machine.cpuModel, cores: machine.cores, memoryGiB: Math.round(machine.memoryBytes / 2 ** 30) };
}

/** A short id of a series: the same key on the same class of machine gives the same id in every run. */
export function seriesId(key: SeriesKey, machine: MachineFingerprint): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical({ key, machine: machineClass(machine) })))
    .digest('hex')
    .slice(0, 12);
}

/** "list-items/app c=10 autocannon": how a series is named to people. */
export function seriesLabel(key: SeriesKey): string {
  return `${key.scenario}/${key.target} c=${key.concurrency} ${key.engine}`;
}
