import { CLIENT_SATURATED_PERCENT, EVENT_LOOP_LAG_MS, type CellLimit } from '@bench/core';

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
}

const fmt = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits });
const saturated = (side: { cpuPercent: number; cores: number } | undefined, share = SATURATED_SHARE) =>
  side !== undefined && side.cpuPercent >= share * 100 * side.cores;
// CPU as top gives it, a percent of one core (200% is two cores busy), and the cores that side may use
const share = (side: { cpuPercent: number; cores: number }) => `${fmt(side.cpuPercent)}% of one core (of ${fmt(side.cores)})`;
const use = (name: string, side: { cpuPercent: number; cores: number }) => `${name} ${share(side)}`;

/** The readings beside the one a line names. */
function used(input: LimitInput, named?: 'server' | 'generator' | 'machine'): string {
  return [
    input.server && named !== 'server' ? use('server', input.server) : undefined,
    input.client && named !== 'generator' ? use('generator', input.client) : undefined,
    input.machineBusyPercent !== undefined && named !== 'machine' ? `machine ${fmt(input.machineBusyPercent)}% busy` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
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
      line: `bounded by the load generator: ${what} (${used(input, lagging ? undefined : 'generator')}): the numbers measure the client as much as the server${cheaper ? `; ${cheaper}` : ''}`,
    };
  }
  if (saturated(input.server))
    return { by: 'server', line: `bounded by the server's CPU: ${use('server', input.server!)} (${used(input, 'server')})` };
  const thread = input.server?.busiestThreadPercent;
  if (thread !== undefined && thread >= SATURATED_SHARE * 100)
    return {
      by: 'server',
      line: `bounded by the server's CPU: its busiest thread at ${fmt(thread)}% of one core (an event loop or a lone worker; ${used(input)})`,
    };
  if (input.machineBusyPercent !== undefined && input.machineBusyPercent >= MACHINE_SATURATED_PERCENT)
    return {
      by: 'machine',
      line: `bounded by the machine: its cores ${fmt(input.machineBusyPercent)}% busy, neither side saturated on its own (${used(input, 'machine')})${input.server ? '' : '; a --url run cannot see the server'}`,
    };
  if (input.stall) return { by: 'stalls', line: `bounded by stalls: ${input.stall}` };
  if (input.machineBusyPercent !== undefined && input.machineBusyPercent < MACHINE_IDLE_PERCENT)
    return {
      by: 'waiting',
      line: `bounded by waiting: ${fmt(input.concurrency)} connections x ${fmt(input.meanMs, 2)} ms = ${fmt(input.concurrency / (input.meanMs / 1000))} rps, machine ${fmt(input.machineBusyPercent)}% busy`,
    };
  return { by: 'unclear', line: `bounded by nothing saturated on its own: ${used(input)}` };
}
