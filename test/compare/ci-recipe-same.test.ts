import { describe, expect, it } from 'vitest';
import { checkout, recipe, rpsRow } from '../support/ci-recipe.js';

// examples/ci/compare-base-head.sh on a base and an identical head (test/support/ci-recipe.ts).
describe('the CI recipe: base and head interleaved in one run, rounds until decided, a gate', () => {
  it('never calls an identical head regressed: within noise (exit 0) or, within 5 rounds, undecided (exit 3)', async () => {
    const run = await recipe(checkout('base'), checkout('same'), 'same', { maxTime: 20, maxRounds: 5 });
    const verdict = run.stdout.match(rpsRow)?.[1];
    expect(['within noise', 'undecided', 'improved'], run.stdout + run.stderr).toContain(verdict);
    expect(run.code).toBe(verdict === 'undecided' ? 3 : 0);
    if (run.code === 3) expect(run.stderr).toMatch(/undecided, so the gate cannot pass .*--allow-undecided/);
  });
});
