import { compareProfiledRuns, type CellResult, type ProfileComparison, type ProfiledRun } from '@bench/core';

const profiledRun = (r: CellResult): ProfiledRun[] =>
  r.profile ? [{ stacks: r.profile.stacks, hz: r.profile.hz, requests: r.requests }] : [];

/**
 * Where the server's CPU per request moved between base and head runs of one cell, when every run of both sides was
 * profiled; `paired`: base[i] and head[i] ran in one round.
 */
export function compareProfiles(base: readonly CellResult[], head: readonly CellResult[], paired: boolean): ProfileComparison | undefined {
  const b = base.flatMap(profiledRun);
  const h = head.flatMap(profiledRun);
  if (b.length !== base.length || h.length !== head.length) return undefined;
  return compareProfiledRuns(b, h, paired);
}
