import type { MachineInfo } from '@bench/core';
import { formatBytes } from './format.js';

/** The machine a measurement was taken on, as every reporter names it: "2 x AMD EPYC, 23.5 GiB, linux 6.18, Node v20". */
export const machineSummary = (m: MachineInfo): string =>
  `${m.cpus} x ${m.cpuModel}, ${formatBytes(m.memoryBytes)}, ${m.platform} ${m.release}, Node ${m.node}`;
