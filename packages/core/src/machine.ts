import os from 'node:os';
import type { HostInfo, MachineInfo } from './result.js';

export function describeMachine(): MachineInfo {
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    platform: os.platform(),
    release: os.release(),
    arch: os.arch(),
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryBytes: os.totalmem(),
    node: process.version,
    sharedHost: true,
  };
}

/** This machine as one host of a run on several: its description and the bench version running here. */
export function describeHost(bench: string): HostInfo {
  const { sharedHost: _shared, ...machine } = describeMachine();
  return { ...machine, bench };
}
