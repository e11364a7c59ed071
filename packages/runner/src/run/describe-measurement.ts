import {
  CLIENT_SATURATED_PERCENT,
  EVENT_LOOP_LAG_MS,
  expectedLength,
  overTls,
  type CellResult,
  type HttpAnswer,
  type LoadMeasurement,
  type ResourceSample,
  type SecondPoint,
  detectStall,
  explainTimeouts,
  cellLimit,
  connectionCostNotes,
  noAnswerNote,
} from '@bench/core';
import type { CounterReading } from '@bench/services';
import { measuredCell, type CellContext } from './cell-result.js';
import { builtinEngines, cheaperEngineLine } from '@bench/engines';
import { engineRefusal } from '../engine-choice/choose-engine.js';
import { generatorCores, serverCores } from './cores.js';

/** A host of the cell other than the client's: its name, cores and how busy they were (percent of all) over the run. */
export interface HostReading {
  readonly name: string;
  readonly cores: number;
  readonly busyPercent?: number | undefined;
}

/** How busy each machine of the cell was: the client's (this machine), and the server's and services' hosts when elsewhere. */
export interface HostReadings {
  readonly client?: number | undefined;
  readonly server?: HostReading;
  readonly database?: HostReading;
}

/** A measured cell: its numbers, and a note for each thing that may have bounded or spoiled them. */
export function describeMeasurement(
  cell: CellContext,
  outcome: LoadMeasurement,
  answer: HttpAnswer | undefined,
  resources: { server?: ResourceSample | undefined; services?: ResourceSample | undefined },
  before: Record<string, CounterReading>,
  after: Record<string, CounterReading>,
  series: SecondPoint[] | undefined,
  machines: HostReadings = {},
): CellResult {
  const machineBusyPercent = machines.client;
  const notes: string[] = [];
  const client = outcome.client;
  if (outcome.generators) {
    const { count, segments } = outcome.generators;
    notes.push(
      `one run split over ${count} ${cell.engine.name} processes (segments ${segments.join(', ')}) on this host, released together, their samples merged`,
    );
  }
  // said once: a cell bounded by its generator says so in its limit line, with the same reading
  const saturatedNote =
    client && client.cpuPercent >= CLIENT_SATURATED_PERCENT
      ? `load generator (${cell.engine.name}) used ${client.cpuPercent}% of one core${outcome.generators ? ` (all ${outcome.generators.count} together)` : ''}: it may be the bottleneck, not the server`
      : undefined;
  // an in-process generator whose event loop lags measures its own lag as latency (said once, as for its CPU)
  const lagNote =
    outcome.eventLoopDelay && outcome.eventLoopDelay.p99 >= EVENT_LOOP_LAG_MS
      ? `the load generator's event loop was delayed (p99 ${outcome.eventLoopDelay.p99} ms): latencies include the client's own lag`
      : undefined;
  if (outcome.rate && outcome.rate.achieved < outcome.rate.target * 0.98) {
    notes.push(
      `achieved ${outcome.rate.achieved} rps of the ${outcome.rate.target} asked (more than 2% short): the server or the generator could not keep up`,
    );
  }
  if (cell.certificatesUnchecked)
    notes.push(
      `${cell.engine.name} checks no server certificate: only bench's verification request checked the chain against the run's CA`,
    );
  if (cell.bodiesUnchecked)
    notes.push(`${cell.engine.name} sees no body under load: statuses were counted, and only bench's verification request checked a body`);
  if (outcome.connectionSetup) {
    const { connect, firstByte } = outcome.connectionSetup;
    notes.push(
      `opening a connection${overTls(cell.options.protocol) ? ' (TCP and the TLS handshake)' : ''} took ${connect.mean.toFixed(2)} ms on average (max ${connect.max.toFixed(2)}), the first byte came ${firstByte.mean.toFixed(2)} ms after the start (max ${firstByte.max.toFixed(2)})`,
    );
  }
  notes.push(...connectionCostNotes(outcome, cell.options));
  if (outcome.sentByStep) {
    const sent = Object.entries(outcome.sentByStep);
    const total = sent.reduce((sum, [, n]) => sum + n, 0);
    const shares = sent.map(([name, n]) => `${name} ${total > 0 ? ((n / total) * 100).toFixed(1) : '0'}%`).join(', ');
    notes.push(
      `${cell.engine.name} cannot tell which step an answer belongs to: requests sent by step ${shares} (numbers per step need autocannon, the open loop or k6)`,
    );
  }
  if (outcome.errorSamples.length > 0) notes.push(`errors seen: ${outcome.errorSamples.join('; ')}`);
  const noAnswer = noAnswerNote(outcome);
  if (noAnswer) notes.push(noAnswer);
  const stall = detectStall({
    ...outcome,
    concurrency: cell.concurrency,
    serverCpuPercent: resources.server?.cpuPercent,
    clientCpuPercent: client?.cpuPercent,
    machineBusyPercent,
  });
  if (stall) notes.push(stall);
  const workers = cell.settings.maxRequestWorkers;
  const timedOut = explainTimeouts({
    ...outcome,
    timeouts: outcome.failures.timeouts,
    concurrency: cell.concurrency,
    timeoutSeconds: cell.options.timeoutSeconds,
    serverCpuPercent: resources.server?.cpuPercent,
    maxRequestWorkers: typeof workers === 'number' ? workers : undefined,
  });
  if (timedOut) notes.push(timedOut);
  const limit = cellLimit({
    concurrency: cell.concurrency,
    rps: outcome.durationSeconds > 0 ? outcome.requests / outcome.durationSeconds : 0,
    meanMs: outcome.latency.mean,
    requests: outcome.requests,
    timeouts: outcome.failures.timeouts,
    connectFailures: outcome.failures.connect,
    engine: cell.engine.name,
    client: client ? { cpuPercent: client.cpuPercent, cores: generatorCores(cell.options) } : undefined,
    eventLoopP99Ms: outcome.eventLoopDelay?.p99,
    server: resources.server
      ? {
          cpuPercent: resources.server.cpuPercent,
          cores: serverCores(cell.options, machines.server?.cores),
          busiestThreadPercent: resources.server.busiestThreadPercent,
        }
      : undefined,
    machineBusyPercent,
    ...(machines.server
      ? {
          clientHost: cell.clientHost,
          serverHost: machines.server,
          ...(machines.database ? { databaseHost: { ...machines.database, cpuPercent: resources.services?.cpuPercent } } : {}),
          ...(cell.link && outcome.durationSeconds > 0
            ? { link: { bytesPerSecond: outcome.bytes.total / outcome.durationSeconds, capacityBytesPerSecond: cell.link.bytesPerSecond } }
            : {}),
        }
      : {}),
    rate: outcome.rate,
    stall,
    timedOut,
    // read from the last selfbench only when the generator bounded the cell
    cheaperEngine: () =>
      cheaperEngineLine(cell.engine.name, (name) => {
        const other = builtinEngines.find((e) => e.name === name);
        return other !== undefined && engineRefusal(other, cell.options, cell.scenario, [cell.concurrency]) === undefined;
      }),
  });
  if (limit.by !== 'generator') notes.unshift(...[saturatedNote, lagNote].filter((n): n is string => n !== undefined));
  const backend: NonNullable<CellResult['backend']> = {};
  for (const [service, reading] of Object.entries(after)) {
    const start = before[service]?.value ?? 0;
    backend[service] = { counter: reading.counter, before: start, after: reading.value, delta: reading.value - start };
  }
  return measuredCell(cell, {
    measurement: outcome,
    answer,
    resources: Object.fromEntries(Object.entries({ ...resources, client }).filter(([, sample]) => sample !== undefined)),
    ...(Object.keys(backend).length > 0 ? { backend } : {}),
    notes,
    limit,
    documentLength: expectedLength(cell.scenario) ?? answer?.body.length ?? 0,
    ...(series ? { series } : {}),
  });
}
