import {
  emptyFailures,
  encodeLatencyHistogram,
  mergeLatencyHistograms,
  mergeLiveSeconds,
  summarizeLatency,
  totalFailed,
  type CellResult,
  type LiveSecond,
  type SecondPoint,
} from '@bench/core';

/**
 * A cell the run was killed in (or, `live`, is measuring now), rebuilt from the seconds its journal kept: counts,
 * the latency of every answer in them (one histogram merged from the seconds'), its series, and a note of where it
 * stopped.
 */
export function interruptedCell(unfinished: CellResult, shares: readonly LiveSecond[], live = false): CellResult {
  const seconds = mergeLiveSeconds(shares);
  const covered = (seconds.at(-1)?.t ?? 0) + 1;
  const byT = new Map(seconds.map((s) => [s.t, s]));
  const series: SecondPoint[] = [];
  const failures = emptyFailures();
  let requests = 0;
  let non2xx = 0;
  for (let t = 0; t < covered; t++) {
    const s = byT.get(t) ?? { requests: 0, non2xx: 0, failures: emptyFailures(), latency: undefined };
    requests += s.requests;
    non2xx += s.non2xx;
    for (const kind of Object.keys(failures) as (keyof typeof failures)[]) failures[kind] += s.failures[kind];
    series.push({
      t,
      phase: 'measure',
      seconds: 1,
      requests: s.requests,
      rps: s.requests,
      non2xx: s.non2xx,
      failures: s.failures,
      ...(s.latency ? { latency: s.latency } : {}),
    });
  }
  const whole = mergeLatencyHistograms(seconds.flatMap((s) => s.histograms));
  const latency = summarizeLatency(whole);
  const histogram = encodeLatencyHistogram(whole);
  whole.destroy();
  const { error: _unfinishedReason, ...cell } = unfinished;
  const { timeouts, ...breakdown } = failures;
  const counted = `${covered} ${covered === 1 ? 'second' : 'seconds'}`;
  return {
    ...cell,
    status: 'ok',
    durationSeconds: covered,
    requests,
    rps: requests / covered,
    latency,
    histogram,
    failed: totalFailed(breakdown),
    failedBreakdown: breakdown,
    non2xx,
    timeouts,
    series,
    interrupted: { atSecond: covered },
    notes: [
      ...cell.notes,
      live
        ? `in progress: ${counted} measured so far`
        : `interrupted: the run stopped ${covered} s into this cell; its numbers cover the ${counted} its journal kept`,
    ],
  };
}
