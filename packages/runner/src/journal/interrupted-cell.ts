import {
  emptyFailures,
  encodeLatencyHistogram,
  mergeLatencyHistograms,
  summarizeLatency,
  totalFailed,
  type CellResult,
  type LiveSecond,
  type SecondPoint,
} from '@bench/core';

interface MergedSecond {
  requests: number;
  non2xx: number;
  failures: ReturnType<typeof emptyFailures>;
  histograms: NonNullable<LiveSecond['histogram']>[];
}

/** The threads' shares of each second, summed by second (histograms kept to merge exactly). */
function bySecond(seconds: readonly LiveSecond[]): Map<number, MergedSecond> {
  const merged = new Map<number, MergedSecond>();
  for (const s of seconds) {
    let m = merged.get(s.t);
    if (!m) merged.set(s.t, (m = { requests: 0, non2xx: 0, failures: emptyFailures(), histograms: [] }));
    m.requests += s.requests;
    m.non2xx += s.non2xx;
    for (const kind of Object.keys(m.failures) as (keyof typeof m.failures)[]) m.failures[kind] += s.failures[kind];
    if (s.histogram) m.histograms.push(s.histogram);
  }
  return merged;
}

/**
 * A cell the run was killed in (or, `live`, is measuring now), rebuilt from the seconds its journal kept: counts, the latency of every answer in
 * them (one histogram merged from the seconds'), its series, and a note of where it stopped.
 */
export function interruptedCell(unfinished: CellResult, seconds: readonly LiveSecond[], live = false): CellResult {
  const merged = bySecond(seconds);
  const covered = Math.max(...merged.keys()) + 1;
  const series: SecondPoint[] = [];
  const failures = emptyFailures();
  let requests = 0;
  let non2xx = 0;
  for (let t = 0; t < covered; t++) {
    const m = merged.get(t) ?? { requests: 0, non2xx: 0, failures: emptyFailures(), histograms: [] };
    requests += m.requests;
    non2xx += m.non2xx;
    for (const kind of Object.keys(failures) as (keyof typeof failures)[]) failures[kind] += m.failures[kind];
    const h = m.histograms.length > 0 ? mergeLatencyHistograms(m.histograms) : undefined;
    const latency = h ? summarizeLatency(h) : undefined;
    h?.destroy();
    series.push({
      t,
      phase: 'measure',
      seconds: 1,
      requests: m.requests,
      rps: m.requests,
      non2xx: m.non2xx,
      failures: m.failures,
      ...(latency ? { latency: { p50: latency.p50, p90: latency.p90, p99: latency.p99, max: latency.max } } : {}),
    });
  }
  const whole = mergeLatencyHistograms([...merged.values()].flatMap((m) => m.histograms));
  const latency = summarizeLatency(whole);
  const histogram = encodeLatencyHistogram(whole);
  whole.destroy();
  const { error: _unfinishedReason, ...cell } = unfinished;
  const { timeouts, ...breakdown } = failures;
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
        ? `in progress: ${covered} ${covered === 1 ? 'second' : 'seconds'} measured so far`
        : `interrupted: the run stopped ${covered} s into this cell; its numbers cover the ${covered} ${covered === 1 ? 'second' : 'seconds'} its journal kept`,
    ],
  };
}
