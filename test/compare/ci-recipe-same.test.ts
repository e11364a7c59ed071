import { describe, expect, it } from 'vitest';
import { checkout, recipe, rpsRow } from '../support/ci-recipe.js';

// examples/ci/compare-base-head.sh on a base and an identical head (test/support/ci-recipe.ts), both waiting 20 ms a
// request in half-second cells (their rates bound by the wait, not by the CPU), at the noise threshold 1 s cells of the
// app bound by the CPU supported here, as the recipe tells its users to set it (`bench noise`): 20 rounds of the same
// code, alone and in a clean-clone CI run, gave per-round ratios from -46% to +62%, σ of ln(B/A) 0.31, a 34.5% threshold
// by docs/comparing.md's formula. At the default 5%, a verdict from 5 rounds calls an identical pair changed whenever
// all five ratios fall beyond 5% the same way (near 1 in 32 at this spread): two clean-clone CI runs saw the head read
// 9-46% slower in all five rounds.
const noise = '35%';

describe('the CI recipe: base and head interleaved in one run, rounds until decided, a gate', () => {
  it('never calls an identical head regressed: within noise (exit 0) or, within 5 rounds, undecided (exit 3)', async () => {
    const run = await recipe(checkout('base', { slowMs: 20 }), checkout('same', { slowMs: 20 }), 'same', {
      maxTime: 20,
      maxRounds: 5,
      noise,
      seconds: 0.5,
    });
    const verdict = run.stdout.match(rpsRow)?.[1];
    expect(['within noise', 'undecided', 'improved'], run.stdout + run.stderr).toContain(verdict);
    expect(run.code).toBe(verdict === 'undecided' ? 3 : 0);
    if (run.code === 3) expect(run.stderr).toMatch(/undecided, so the gate cannot pass .*--allow-undecided/);
  });
});
