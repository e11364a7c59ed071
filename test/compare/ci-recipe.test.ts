import { describe, expect, it } from 'vitest';
import { checkout, recipe, rpsRow } from '../support/ci-recipe.js';

// examples/ci/compare-base-head.sh on a base and a head slowed by 50 ms per request (test/support/ci-recipe.ts).
describe('the CI recipe: base and head interleaved in one run, rounds until decided, a gate', () => {
  it('decides that a head slowed by 50 ms per request regressed, within the time cap, and fails the job', async () => {
    // 1 s runs: in half-second ones beside the other files, base (bound by the CPU) read 130-783 rps against head's
    // 135-175 (capped at 200), and 5 rounds left the verdict undecided in a clean-clone CI run
    const run = await recipe(checkout('base'), checkout('slow', { slowMs: 50 }), 'slow', { maxTime: 30, maxRounds: 6 });
    expect(run.stdout.match(rpsRow)?.[1], run.stdout + run.stderr).toBe('regressed');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/beyond --fail-if and the noise \(first: list-items\/app-head vs app-base c=10 rps<-5%/);
    expect(run.doc.rounds).toMatchObject({ requested: 'auto', stoppedBecause: 'decided' });
    expect(run.doc.rounds!.completed).toBeGreaterThanOrEqual(5);
    expect(run.stderr).toMatch(/bench: \d+ round\(s\); stopped: every comparison decided/);
    // both targets ran in every round, and the seed of their order is recorded
    expect(typeof run.doc.options.seed).toBe('number');
    for (let round = 1; round <= run.doc.rounds!.completed; round++)
      expect(
        run.doc.results
          .filter((r) => r.repeat === round)
          .map((r) => r.target)
          .sort(),
      ).toEqual(['app-base', 'app-head']);
    expect(run.summary).toMatch(/## bench: app, base against head[\s\S]*\| regressed \|/);
    expect(run.stdout).toMatch(/- basis, list-items app-head vs app-base c=10 rps: \d+ round\(s\) paired, median of the per-round ratios/);
  });
});
