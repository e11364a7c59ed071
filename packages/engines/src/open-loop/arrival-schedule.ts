/** When an open loop's requests are due. */
export interface ArrivalSchedule {
  /** How many of them this thread sends. */
  readonly due: number;
  /** Its j-th one's intended send time, in nanoseconds after the start. */
  atNs(j: number): bigint;
  /** The same in milliseconds, a double: no BigInt made per request where a performance.now() reading is compared. */
  atMs(j: number): number;
}

/**
 * One thread's share of an open loop at `rate` requests per second (the thread's own share of the
 * run's rate) over `seconds`. The run's k-th request is due k/R seconds after the start, R·seconds
 * of them; thread i of n takes requests i, i+n, i+2n, ..., so together the threads send exactly
 * the requests one thread would, at the same instants.
 */
export function arrivalSchedule(rate: number, seconds: number, slot: { readonly index: number; readonly count: number }): ArrivalSchedule {
  const { index, count } = slot;
  const runRate = rate * count;
  const runDue = Math.max(1, Math.round(runRate * seconds));
  return {
    due: Math.max(0, Math.ceil((runDue - index) / count)),
    atNs: (j) => BigInt(Math.round(((j * count + index) * 1e9) / runRate)),
    atMs: (j) => ((j * count + index) * 1e3) / runRate,
  };
}
