import { describe, expect, it } from 'vitest';
import { isBenchError, type CellResult, type RunDocument } from '@bench/core';
import { seededRandom, shuffled } from '@bench/core';
import { comparePaired, parseTargetPair } from './paired-compare.js';
import { assessRounds } from './round-decision.js';

function doc(results: Array<Partial<CellResult>>, seed = 7): RunDocument {
  return {
    startedAt: 'now',
    command: 'bench run',
    options: { seed },
    machine: { cpuModel: 'cpu', cpus: 2 },
    results: results.map((r) => ({
      scenario: 'hello',
      concurrency: 10,
      status: 'ok',
      latency: { mean: 1, p50: 1, p90: 2, p99: 5, p999: 9, max: 10 },
      notes: [],
      ...r,
    })),
  } as unknown as RunDocument;
}

/** Base and head rps per round: `[base, head]` pairs. */
const rounds = (pairs: Array<[number, number]>) =>
  doc(
    pairs.flatMap(([base, head], i) => [
      { target: 'app-main', repeat: i + 1, rps: base },
      { target: 'app-pr', repeat: i + 1, rps: head },
    ]),
  );

const pair = { base: 'app-main', head: 'app-pr' };

describe('paired comparison statistics (given rounds)', () => {
  it('decides nothing on 3 rounds: an A/A pair whose three ratios fell beyond -5% (seen on a busy machine) is no verdict', () => {
    const c = comparePaired(
      rounds([
        [21_121, 20_029],
        [21_578, 20_024],
        [21_340, 19_664],
      ]),
      pair,
      { failIf: 'rps<-5%' },
    );
    expect(c.cells[0]!.metrics.find((m) => m.metric === 'rps')!.verdict).toBe('no verdict');
    expect(c.broken).toEqual([]);
  });

  it('cancels a drift of the machine that falls on both sides of a round alike', () => {
    // throughput halves over the run, the same for both: the ratio sees no change
    const c = comparePaired(
      rounds([
        [10_000, 10_050],
        [8_000, 7_990],
        [6_000, 6_010],
        [5_000, 4_995],
        [4_000, 4_010],
      ]),
      pair,
      { noisePercent: 2 },
    );
    const rps = c.cells[0]!.metrics.find((m) => m.metric === 'rps')!;
    expect(rps.verdict).toBe('within noise');
    expect(Math.abs(rps.changePercent)).toBeLessThan(1);
    expect(rps.basis).toMatch(/^5 round\(s\) paired, median of the per-round ratios head\/base, 95% bootstrap interval -?\d/);
    expect(c.paired).toEqual({ base: 'app-main', head: 'app-pr', seed: 7 });
  });
});

describe('bench compare --base --head', () => {
  it('calls a consistent drop regressed and breaks --fail-if', () => {
    const c = comparePaired(
      rounds([
        [10_000, 8_000],
        [9_000, 7_300],
        [11_000, 8_700],
        [10_500, 8_300],
        [9_500, 7_700],
      ]),
      pair,
      { failIf: 'rps<-5%' },
    );
    expect(c.cells[0]!.metrics.find((m) => m.metric === 'rps')!.verdict).toBe('regressed');
    expect(c.broken.map((b) => b.limit)).toEqual(['rps<-5%']);
    expect(c.undecided).toEqual([]);
  });

  it('calls an interval that straddles the threshold undecided, and the limit unchecked', () => {
    const c = comparePaired(
      rounds([
        [10_000, 9_000],
        [10_000, 10_100],
        [10_000, 9_500],
        [10_000, 9_900],
        [10_000, 9_400],
      ]),
      pair,
      { failIf: 'rps<-5%' },
    );
    const rps = c.cells[0]!.metrics.find((m) => m.metric === 'rps')!;
    expect(rps.verdict).toBe('undecided');
    expect(c.broken).toEqual([]);
    expect(c.undecided).toMatchObject([{ limit: 'rps<-5%', verdict: 'undecided' }]);
    expect(c.undecided[0]!.remedy).toMatch(/more rounds/);
  });

  it('gives no verdict under 5 paired rounds, and pairs only rounds both targets finished', () => {
    const c = comparePaired(
      doc(
        [1, 2, 3, 4, 5].flatMap((repeat) => [
          { target: 'app-main', repeat, rps: 100 },
          { target: 'app-pr', repeat, rps: 50, ...(repeat === 2 ? { status: 'failed' as const } : {}) },
        ]),
      ),
      pair,
      { failIf: 'rps<-5%' },
    );
    const rps = c.cells[0]!.metrics.find((m) => m.metric === 'rps')!;
    expect(rps.verdict).toBe('no verdict');
    expect(rps.reason).toMatch(/at least 5 rounds in which both targets succeeded \(has 4\)/);
    expect(c.undecided).toHaveLength(1);
  });

  it('refuses a target the results do not hold, and a malformed pair', () => {
    expect(() => comparePaired(rounds([[1, 1]]), { base: 'app-main', head: 'nope' })).toThrow(/no target "nope"/);
    expect(parseTargetPair('--compare', 'a:b')).toEqual({ base: 'a', head: 'b' });
    for (const bad of ['a', 'a:a', 'a:b:c']) {
      try {
        parseTargetPair('--compare', bad);
        expect.unreachable();
      } catch (error) {
        expect(isBenchError(error) && error.exitCode).toBe(2);
      }
    }
  });
});

describe('--repeat auto: when rounds stop', () => {
  it('is decided once every comparison is, and names where each stands', () => {
    const decided = assessRounds(
      rounds([
        [10_000, 8_000],
        [9_000, 7_300],
        [11_000, 8_700],
        [10_500, 8_300],
        [9_500, 7_700],
      ]),
      [pair],
      5,
    );
    expect(decided.decided).toBe(true);
    expect(decided.lines[0]).toMatch(/^app-main:app-pr hello c=10: rps -\d+\.\d% \[.*\] regressed$/);
    const undecided = assessRounds(
      rounds([
        [10_000, 9_000],
        [10_000, 10_100],
        [10_000, 9_500],
        [10_000, 9_900],
        [10_000, 9_400],
      ]),
      [pair],
      5,
    );
    expect(undecided.decided).toBe(false);
  });

  it('without a comparison, waits until every cell interval is narrower than the noise', () => {
    const steady = doc([100, 101, 99, 100].map((rps, i) => ({ target: 'node', repeat: i + 1, rps })));
    expect(assessRounds(steady, [], 5).decided).toBe(true);
    const noisy = doc([100, 130, 80, 110].map((rps, i) => ({ target: 'node', repeat: i + 1, rps })));
    expect(assessRounds(noisy, [], 5).decided).toBe(false);
    expect(assessRounds(doc([{ target: 'node', repeat: 1, rps: 100 }]), [], 5).decided).toBe(false);
  });
});

describe('seeded order', () => {
  it('shuffles the same way for the same seed, and is a permutation', () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f'];
    const first = shuffled(items, seededRandom(11));
    expect(shuffled(items, seededRandom(11))).toEqual(first);
    expect([...first].sort()).toEqual(items);
    const orders = new Set(Array.from({ length: 20 }, (_, i) => shuffled(items, seededRandom(i + 1)).join('')));
    expect(orders.size).toBeGreaterThan(10);
  });
});
