import type { HostInfo, MachineInfo, RunDocument } from '@bench/core';
import { formatBytes } from './format.js';

/** The machine a measurement was taken on, as every reporter names it: "2 x AMD EPYC, 23.5 GiB, linux 6.18, Node v20". */
export const machineSummary = (m: Omit<MachineInfo, 'sharedHost'>): string =>
  `${m.cpus} x ${m.cpuModel}, ${formatBytes(m.memoryBytes)}, ${m.platform} ${m.release}, Node ${m.node}`;

const hostSummary = (h: HostInfo) => `${machineSummary(h)}, bench ${h.bench}`;
/** What ran on a host, and on how many of its CPUs when the agent was pinned to fewer. */
const ranThere = (what: string, h: HostInfo & { readonly cores?: number | undefined }) =>
  `${what}${h.cores !== undefined && h.cores < h.cpus ? `, on ${h.cores} of its ${h.cpus} CPUs` : ''}`;

/**
 * The machines of a run, one line each as every reporter names them: "Machine: ..." on one machine (and whether the
 * generator and the servers shared it), each host by its role on several (--server-host), with the link measured.
 */
export function machineLines(doc: RunDocument, generator = 'The load generator'): string[] {
  const hosts = doc.hosts;
  if (!hosts)
    return [`Machine: ${machineSummary(doc.machine)}.${doc.machine.sharedHost ? ` ${generator} and the servers share these cores.` : ''}`];
  const { client, server, database } = hosts;
  return [
    `Client host: ${client.hostname}: the load generator; ${hostSummary(client)}.`,
    `Server host: ${server.name} (${server.address}): ${ranThere(database ? 'the stacks' : 'the stacks and their services', server)}; ${hostSummary(server)}.`,
    ...(database
      ? [`Database host: ${database.name} (${database.address}): ${ranThere('the services', database)}; ${hostSummary(database)}.`]
      : []),
    ...(hosts.link
      ? [
          `Link from the server host: ${(hosts.link.bytesPerSecond / 1e6).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB/s in a one-second transfer before the first cell.`,
        ]
      : []),
  ];
}
