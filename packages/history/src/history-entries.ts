import { stepCells, type CellResult, type RunDocument } from '@bench/core';
import { HISTORY_SCHEMA_VERSION, type GitInfo, type HistoryEntry } from './history-entry.js';
import { machineFingerprint, seriesId, seriesKeyOf } from './series-key.js';

function metricsOf(result: CellResult): HistoryEntry['metrics'] {
  const { latency } = result;
  return {
    rps: result.rps,
    mean: latency.mean,
    p50: latency.p50,
    p90: latency.p90,
    p99: latency.p99,
    p999: latency.p999,
    max: latency.max,
    requests: result.requests,
    failed: result.failed,
    non2xx: result.non2xx,
  };
}

/** One history line per cell of a run, each keyed to its series and to the commit it measured; `profiles`: with the cell's profile. */
export function historyEntriesOf(doc: RunDocument, git: GitInfo, addedAt: Date = new Date(), profiles = false): HistoryEntry[] {
  const machine = machineFingerprint(doc.machine);
  // a workload's steps are series of their own ("shop › get-item"), beside their cell's
  const cells = doc.results.flatMap((result) => [result, ...stepCells(result, (step) => `${result.scenario} › ${step}`)]);
  return cells.map((result) => {
    const key = seriesKeyOf(doc, result);
    return {
      schemaVersion: HISTORY_SCHEMA_VERSION,
      series: seriesId(key, machine),
      key,
      machine,
      git,
      run: { startedAt: doc.startedAt, command: doc.command, repeat: result.repeat, toolVersion: doc.tool.version },
      status: result.status,
      metrics: metricsOf(result),
      ...(profiles && result.profile
        ? { profile: { hz: result.profile.hz, samples: result.profile.samples, stacks: result.profile.stacks } }
        : {}),
      addedAt: addedAt.toISOString(),
    };
  });
}
