import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { LoadEngine, LoadMeasurement, LoadPlan } from '@bench/core';
import { builtinScenarios, commandTarget, resolveRunOptions, runBench, type RunEvent, type RunOptionInput } from '@bench/runner';

// Rounds on real (small) servers with a stand-in load engine that answers instantly: each target's rps is set
// here, so the order of the rounds and when --repeat auto stops can be checked in seconds.
const server = fileURLToPath(new URL('../fixtures/stalling-server.mjs', import.meta.url));
const scenarios = builtinScenarios();
const latency = { mean: 1, stdev: 0, min: 1, p50: 1, p66: 1, p75: 1, p80: 1, p90: 1, p95: 1, p98: 1, p99: 1, p999: 1, max: 1 };

async function rounds(input: RunOptionInput, rpsOf: Record<string, () => number>) {
  let current = '';
  const order: string[] = [];
  const engine: LoadEngine = {
    name: 'stand-in',
    description: 'answers at once with the rps the test gives each target',
    available: async () => ({ ok: true, version: '1' }),
    supports: () => ({ ok: true }),
    run: async (_plan: LoadPlan): Promise<LoadMeasurement> => {
      order.push(current);
      const rps = rpsOf[current]!();
      return {
        durationSeconds: 1,
        requests: Math.round(rps),
        latency,
        failures: { connect: 0, receive: 0, length: 0, exceptions: 0, timeouts: 0 },
        non2xx: 0,
        statusCodes: { '200': Math.round(rps) },
        bytes: { total: 0, body: 0 },
        errorSamples: [],
      };
    },
  };
  const targets = Object.keys(rpsOf).map((name) => commandTarget({ name, command: process.execPath, args: [server] }));
  const options = resolveRunOptions(
    { scenarios: ['hello'], targets: Object.keys(rpsOf) },
    { engine: 'stand-in', warmupSeconds: 0, durationSeconds: 1, ...input },
  );
  const events: RunEvent[] = [];
  const doc = await runBench(options, {
    targets,
    scenarios,
    engines: [engine],
    reporters: [],
    onEvent: (event) => {
      events.push(event);
      if (event.type === 'target-starting') current = event.target;
    },
  });
  return { doc, order, events };
}

const steady = (rps: number) => () => rps;

describe('rounds', () => {
  it('run every target once per round, in an order drawn from the seed (recorded), reported in the plan order', async () => {
    const rps = { a: steady(100), b: steady(100), c: steady(100) };
    const first = await rounds({ repeat: 4, seed: 42 }, rps);
    const again = await rounds({ repeat: 4, seed: 42 }, rps);
    expect(again.order).toEqual(first.order);
    for (let round = 0; round < 4; round++) expect(first.order.slice(round * 3, round * 3 + 3).sort()).toEqual(['a', 'b', 'c']);
    // the order differs between rounds: not the plan's order every time
    const perRound = [0, 1, 2, 3].map((round) => first.order.slice(round * 3, round * 3 + 3).join(''));
    expect(new Set(perRound).size).toBeGreaterThan(1);
    expect(first.doc.options.seed).toBe(42);
    expect(first.doc.rounds).toMatchObject({ requested: 4, completed: 4, stoppedBecause: 'fixed', seed: 42 });
    expect(first.doc.results.map((r) => `${r.repeat}${r.target}`)).toEqual([
      '1a',
      '1b',
      '1c',
      '2a',
      '2b',
      '2c',
      '3a',
      '3b',
      '3c',
      '4a',
      '4b',
      '4c',
    ]);
  });

  it('draw a seed when none is given, and record it', async () => {
    const { doc } = await rounds({ repeat: 1 }, { a: steady(100) });
    expect(doc.options.seed).toEqual(expect.any(Number));
    expect(doc.rounds?.seed).toBe(doc.options.seed);
  });

  it('with --repeat auto, stop as soon as the comparison is decided (never before the 5 rounds a paired verdict needs), and say why', async () => {
    const { doc, events } = await rounds({ repeat: 'auto', compare: ['a:b'], maxRounds: 10 }, { a: steady(1000), b: steady(800) });
    expect(doc.rounds).toMatchObject({ requested: 'auto', completed: 5, stoppedBecause: 'decided' });
    expect(doc.rounds!.lines).toEqual(['a:b hello c=10: rps -20.0% [-20.0% .. -20.0%] regressed']);
    expect(events.filter((e) => e.type === 'round-end').map((e) => (e.type === 'round-end' ? e.decided : undefined))).toEqual([
      false,
      false,
      false,
      false,
      true,
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'rounds-end', rounds: 5, stoppedBecause: 'decided' });
  });

  it('with --repeat auto, stop at --max-rounds when the comparison stays undecided', async () => {
    // head alternates 4% and 12% slower: the interval straddles the 5% threshold however many rounds run
    let flip = false;
    const head = () => {
      flip = !flip;
      return flip ? 960 : 880;
    };
    const { doc } = await rounds({ repeat: 'auto', compare: ['a:b'], maxRounds: 6 }, { a: steady(1000), b: head });
    expect(doc.rounds).toMatchObject({ completed: 6, stoppedBecause: 'max-rounds' });
    expect(doc.rounds!.lines[0]).toMatch(/undecided$/);
  });

  it('refuses a --compare that names a target the run does not have', async () => {
    await expect(rounds({ repeat: 'auto', compare: ['a:z'] }, { a: steady(1), b: steady(1) })).rejects.toThrow(/--compare names "z"/);
    await expect(rounds({ repeat: 'auto', compare: ['a:b'], maxRounds: 3 }, { a: steady(1), b: steady(1) })).rejects.toThrow(
      /^--max-rounds 3 is fewer than the 5 rounds a verdict needs: raise it to 5 or more$/,
    );
  });
});
