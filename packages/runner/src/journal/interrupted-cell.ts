import {
  createLatencyHistogram,
  decodeLatencyHistogram,
  emptyFailures,
  encodeLatencyHistogram,
  mergeLiveSeconds,
  summarizeLatency,
  totalFailed,
  type CellResult,
  type LatencyHistogram,
  type LiveSecond,
  type SecondPoint,
} from '@bench/core';

/**
 * A cell rebuilt from the seconds its journal kept, for a run killed during it (or, `live`, measuring it now): counts,
 * the latency of every answer in them (one histogram merged from the seconds'), its series, and a note of where it
 * stopped. Seconds are folded in once each, as they come, so a live page that asks every second does not decode an
 * hour of histograms every time.
 */
export class InterruptedCell {
  /** Threads' shares of seconds not folded in yet. */
  private pending: LiveSecond[] = [];
  private readonly series: SecondPoint[] = [];
  private readonly whole: LatencyHistogram = createLatencyHistogram();
  private readonly failures = emptyFailures();
  private requests = 0;
  private non2xx = 0;

  constructor(private readonly unfinished: CellResult) {}

  add(share: LiveSecond): void {
    this.pending.push(share);
  }

  /** The cell so far; `live`, the newest second (whose other threads' shares may still come) is left for later. */
  cell(live = false): CellResult | undefined {
    this.fold(live);
    const covered = this.series.length;
    if (covered === 0) return undefined;
    const { error: _unfinishedReason, ...cell } = this.unfinished;
    const { timeouts, ...breakdown } = this.failures;
    const counted = `${covered} ${covered === 1 ? 'second' : 'seconds'}`;
    return {
      ...cell,
      status: 'ok',
      durationSeconds: covered,
      requests: this.requests,
      rps: this.requests / covered,
      latency: summarizeLatency(this.whole),
      histogram: encodeLatencyHistogram(this.whole),
      failed: totalFailed(breakdown),
      failedBreakdown: breakdown,
      non2xx: this.non2xx,
      timeouts,
      series: [...this.series],
      interrupted: { atSecond: covered },
      notes: [
        ...cell.notes,
        live
          ? `in progress: ${counted} measured so far`
          : `interrupted: the run stopped ${covered} s into this cell; its numbers cover the ${counted} its journal kept`,
      ],
    };
  }

  /** Frees the merged histogram. */
  destroy(): void {
    this.whole.destroy();
  }

  private fold(live: boolean): void {
    const newest = Math.max(...this.pending.map((s) => s.t));
    const ready = live ? this.pending.filter((s) => s.t < newest) : this.pending;
    this.pending = live ? this.pending.filter((s) => s.t >= newest) : [];
    for (const s of mergeLiveSeconds(ready)) {
      // seconds in which nothing was answered leave no share: they are points of zero
      for (let t = this.series.length; t < s.t; t++)
        this.series.push({ t, phase: 'measure', seconds: 1, requests: 0, rps: 0, non2xx: 0, failures: emptyFailures() });
      this.requests += s.requests;
      this.non2xx += s.non2xx;
      for (const kind of Object.keys(this.failures) as (keyof typeof this.failures)[]) this.failures[kind] += s.failures[kind];
      for (const encoded of s.histograms) {
        const h = decodeLatencyHistogram(encoded);
        this.whole.add(h);
        h.destroy();
      }
      const known = this.series[s.t];
      if (known) {
        // a thread's share that came after its second was drawn: counted, that second's percentiles left as they were
        this.series[s.t] = {
          ...known,
          requests: known.requests + s.requests,
          rps: known.rps + s.requests,
          non2xx: known.non2xx + s.non2xx,
          failures: {
            ...known.failures,
            ...Object.fromEntries(Object.entries(s.failures).map(([k, n]) => [k, known.failures[k as keyof typeof s.failures] + n])),
          },
        };
        continue;
      }
      this.series.push({
        t: s.t,
        phase: 'measure',
        seconds: 1,
        requests: s.requests,
        rps: s.requests,
        non2xx: s.non2xx,
        failures: s.failures,
        ...(s.latency ? { latency: s.latency } : {}),
      });
    }
  }
}
