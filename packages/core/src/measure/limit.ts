import { CLIENT_SATURATED_PERCENT, EVENT_LOOP_LAG_MS } from './generator-health.js';
import { type CellLimit } from '../result.js';

// What set a cell's throughput, in one line. A closed loop of c connections always answers c / (time a request
// takes) per second (Little's law); the question is what the time was spent on: the server's CPU, the generator's,
// the machine's as a whole, a few long waits, a queue longer than the timeout, or waiting that used no CPU at all
// (a server that sleeps 50 ms a request at -c 4: 77 rps with the machine idle).

/** The server or the generator at this share of the cores it can use is saturated. */
export const SATURATED_SHARE = 0.85;
/** The whole machine this busy (percent of all its cores) left no CPU for either side. */
export const MACHINE_SATURATED_PERCENT = 90;
/** Below this the machine is mostly idle: what bounded the cell was waiting, not work. */
export const MACHINE_IDLE_PERCENT = 50;
/** Failed connects at this share of all attempts bound the cell by connections. */
export const CONNECT_FAILURE_SHARE = 0.01;

/** A host of the cell other than the client's (--server-host, --database-host): its name, cores, and how busy they were. */
export interface HostLoad {
  readonly name: string;
  readonly cores: number;
  /** Percent of all its cores, over the measured run. */
  readonly busyPercent?: number | undefined;
}

export interface LimitInput {
  readonly concurrency: number;
  readonly rps: number;
  /** Mean time a request took, ms. */
  readonly meanMs: number;
  readonly requests: number;
  readonly timeouts: number;
  readonly connectFailures: number;
  readonly engine: string;
  /** The generator's CPU, percent of one core, and the cores it may use (its threads). */
  readonly client?: { readonly cpuPercent: number; readonly cores: number } | undefined;
  readonly eventLoopP99Ms?: number | undefined;
  /**
   * The server's CPU, percent of one core, the cores it may run on, and its busiest thread's CPU (one event loop can
   * bind a stack that has cores to spare); absent for --url.
   */
  readonly server?: { readonly cpuPercent: number; readonly cores: number; readonly busiestThreadPercent?: number | undefined } | undefined;
  readonly machineBusyPercent?: number | undefined;
  /** An open loop: the rate asked for and achieved. */
  readonly rate?: { readonly target: number; readonly achieved: number } | undefined;
  /** The stall note of the cell, when a few long waits bounded it. */
  readonly stall?: string | undefined;
  /** The timeout note of the cell, when its queue outgrew --timeout. */
  readonly timedOut?: string | undefined;
  /** One line on what another engine costs per request here (from the last selfbench), asked only of a generator-bound cell. */
  readonly cheaperEngine?: (() => string | undefined) | undefined;
  /** The client's host name, when the stack ran on another host: the lines then name each host (machineBusyPercent is the client's). */
  readonly clientHost?: string | undefined;
  /** The host the stack ran on, when not the client's. */
  readonly serverHost?: HostLoad | undefined;
  /** The host the services ran on, when neither the client's nor the server's, with the services' CPU (percent of one core). */
  readonly databaseHost?: (HostLoad & { readonly cpuPercent?: number | undefined }) | undefined;
  /** What the link to the server host carried in the cell, and in a transfer measured before the run (bytes a second). */
  readonly link?: { readonly bytesPerSecond: number; readonly capacityBytesPerSecond: number } | undefined;
}

const fmt = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits });
const saturated = (side: { cpuPercent: number; cores: number } | undefined, share = SATURATED_SHARE) =>
  side !== undefined && side.cpuPercent >= share * 100 * side.cores;
// CPU as top gives it, a percent of one core (200% is two cores busy), and the cores that side may use
const share = (side: { cpuPercent: number; cores: number }) => `${fmt(side.cpuPercent)}% of one core (of ${fmt(side.cores)})`;
const use = (name: string, side: { cpuPercent: number; cores: number }) => `${name} ${share(side)}`;

/** The megabytes a second of a byte rate, for a line. */
const megabytes = (bytesPerSecond: number) => `${fmt(bytesPerSecond / 1e6, 1)} MB/s`;

/** The readings beside the one a line names; on several hosts, each host's busy share by its name. */
function used(input: LimitInput, named?: 'server' | 'generator' | 'machine'): string {
  const hosts = input.serverHost !== undefined;
  const busy = (name: string | undefined, percent: number | undefined) =>
    percent !== undefined ? `${name ?? 'machine'} ${fmt(percent)}% busy` : undefined;
  return [
    input.server && named !== 'server' ? use('server', input.server) : undefined,
    input.client && named !== 'generator' ? use('generator', input.client) : undefined,
    named !== 'machine' ? busy(hosts ? `client host ${input.clientHost ?? ''}`.trim() : undefined, input.machineBusyPercent) : undefined,
    named !== 'machine' && input.serverHost ? busy(`server host ${input.serverHost.name}`, input.serverHost.busyPercent) : undefined,
    input.databaseHost ? busy(`database host ${input.databaseHost.name}`, input.databaseHost.busyPercent) : undefined,
    input.link ? `link ${megabytes(input.link.bytesPerSecond)} of ${megabytes(input.link.capacityBytesPerSecond)}` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
}

/** Where a side ran, for a line on several hosts: " on the client (NAME)", " on NAME"; nothing on one machine. */
const onClient = (input: LimitInput) => (input.serverHost ? ` on the client${input.clientHost ? ` (${input.clientHost})` : ''}` : '');
const onServer = (input: LimitInput) => (input.serverHost ? ` on ${input.serverHost.name}` : '');

/** Across hosts: the database host's cores, the link, or one host's cores as a whole. */
function hostsLimit(input: LimitInput): CellLimit | undefined {
  const database = input.databaseHost;
  if (database?.cpuPercent !== undefined && saturated({ cpuPercent: database.cpuPercent, cores: database.cores }))
    return {
      by: 'database',
      line: `bounded by the database host (${database.name}): its services at ${share({ cpuPercent: database.cpuPercent, cores: database.cores })} (${used(input)})`,
    };
  if (input.link && input.link.bytesPerSecond >= SATURATED_SHARE * input.link.capacityBytesPerSecond)
    return {
      by: 'link',
      line: `bounded by the link to ${input.serverHost?.name ?? 'the server host'}: ${megabytes(input.link.bytesPerSecond)} received, of the ${megabytes(input.link.capacityBytesPerSecond)} it carried in a transfer before the run (${used(input)})`,
    };
  const server = input.serverHost;
  if (server?.busyPercent !== undefined && server.busyPercent >= MACHINE_SATURATED_PERCENT)
    return {
      by: 'machine',
      line: `bounded by the server host (${server.name}): its cores ${fmt(server.busyPercent)}% busy, the stack not saturated on its own (${used(input, 'machine')})`,
    };
  if (server && input.machineBusyPercent !== undefined && input.machineBusyPercent >= MACHINE_SATURATED_PERCENT)
    return {
      by: 'machine',
      line: `bounded by the client host${input.clientHost ? ` (${input.clientHost})` : ''}: its cores ${fmt(input.machineBusyPercent)}% busy, the generator not saturated on its own (${used(input, 'machine')})`,
    };
  return undefined;
}

/** What bounded a cell's throughput, and the line that says so. */
export function cellLimit(input: LimitInput): CellLimit {
  const attempts = input.requests + input.timeouts + input.connectFailures;
  if (input.timedOut || (attempts > 0 && input.connectFailures >= CONNECT_FAILURE_SHARE * attempts))
    return {
      by: 'connections',
      line: `bounded by connections: ${input.timedOut ?? `${fmt(input.connectFailures)} of ${fmt(attempts)} connects failed (the server's backlog or connection limit)`}`,
    };
  if (input.rate && input.rate.achieved >= input.rate.target * 0.98)
    return {
      by: 'rate',
      line: `held at the set rate: ${fmt(input.rate.target)} rps asked, ${fmt(input.rate.achieved, 1)} achieved (an open loop: the schedule set the throughput; ${used(input)})`,
    };
  const lagging = input.eventLoopP99Ms !== undefined && input.eventLoopP99Ms >= EVENT_LOOP_LAG_MS;
  if (saturated(input.client, CLIENT_SATURATED_PERCENT / 100) || lagging) {
    const what = lagging
      ? `its event loop lagged ${fmt(input.eventLoopP99Ms, 1)} ms at p99`
      : `${input.engine} used ${share(input.client!)}`;
    const cheaper = input.cheaperEngine?.();
    return {
      by: 'generator',
      line: `bounded by the load generator${onClient(input)}: ${what} (${used(input, lagging ? undefined : 'generator')}): the numbers measure the client as much as the server${cheaper ? `; ${cheaper}` : ''}`,
    };
  }
  if (saturated(input.server))
    return {
      by: 'server',
      line: `bounded by the server's CPU${onServer(input)}: ${use('server', input.server!)} (${used(input, 'server')})`,
    };
  const thread = input.server?.busiestThreadPercent;
  if (thread !== undefined && thread >= SATURATED_SHARE * 100)
    return {
      by: 'server',
      line: `bounded by the server's CPU${onServer(input)}: its busiest thread at ${fmt(thread)}% of one core (an event loop or a lone worker; ${used(input)})`,
    };
  const acrossHosts = input.serverHost ? hostsLimit(input) : undefined;
  if (acrossHosts) return acrossHosts;
  if (!input.serverHost && input.machineBusyPercent !== undefined && input.machineBusyPercent >= MACHINE_SATURATED_PERCENT)
    return {
      by: 'machine',
      line: `bounded by the machine: its cores ${fmt(input.machineBusyPercent)}% busy, neither side saturated on its own (${used(input, 'machine')})${input.server ? '' : '; a --url run cannot see the server'}`,
    };
  if (input.stall) return { by: 'stalls', line: `bounded by stalls: ${input.stall}` };
  const idle = (percent: number | undefined) => percent !== undefined && percent < MACHINE_IDLE_PERCENT;
  if (idle(input.machineBusyPercent) && (!input.serverHost || idle(input.serverHost.busyPercent)))
    return {
      by: 'waiting',
      line: `bounded by waiting: ${fmt(input.concurrency)} connections x ${fmt(input.meanMs, 2)} ms = ${fmt(input.concurrency / (input.meanMs / 1000))} rps, ${input.serverHost ? used(input) : `machine ${fmt(input.machineBusyPercent!)}% busy`}`,
    };
  return { by: 'unclear', line: `bounded by nothing saturated on its own: ${used(input)}` };
}
