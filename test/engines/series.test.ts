import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeLatencyHistogram, summarizeLatency, type CellResult, type LoadEngine, type LoadShape } from '@bench/core';
import { builtinEngines, builtinScenarios, commandTarget, resolveRunOptions, runBench, type RunOptionInput } from '@bench/runner';

// Every engine here fills the per-second series and the whole histogram, checked on short real runs
// against a small Node server the run starts (test/fixtures/stalling-server.mjs), which waits 5 ms an answer: the
// closed loops' rates are bound by that wait (about 200 a connection a second), not by the CPU they can take.
const server = fileURLToPath(new URL('../fixtures/stalling-server.mjs', import.meta.url));
const scenarios = builtinScenarios();
const hello = scenarios.find((s) => s.name === 'hello')!;
const closedLoop: LoadShape = { connections: 4, durationSeconds: 2, keepAlive: true, timeoutSeconds: 10 };
const openLoop: LoadShape = { ...closedLoop, rate: 300 };

/** Every engine of the registry, with the run shape it drives (the open loop needs a rate). */
const engines = builtinEngines
  .map((engine) => ({ engine, shape: engine.supports(closedLoop, hello.request, hello.expect.body).ok ? closedLoop : openLoop }))
  .filter(({ engine, shape }) => engine.supports(shape, hello.request, hello.expect.body).ok);

async function runCell(engine: LoadEngine, input: RunOptionInput, env: Record<string, string> = {}): Promise<CellResult> {
  const target = commandTarget({ name: 'stalling', command: process.execPath, args: [server], env: { DELAY_MS: '5', ...env } });
  const options = resolveRunOptions({ scenarios: ['hello'], targets: ['stalling'] }, { engine: engine.name, ...input });
  const doc = await runBench(options, { targets: [target], scenarios, reporters: [] });
  expect(doc.results).toHaveLength(1);
  const [cell] = doc.results;
  expect(cell, cell?.error).toMatchObject({ status: 'ok', failed: 0 });
  return cell!;
}

const measured = (cell: CellResult) => (cell.series ?? []).filter((p) => p.phase === 'measure');

describe('per-second series and the whole histogram', () => {
  it('covers every engine of the registry: each is installed here (the setup script installs wrk, ab and k6)', async () => {
    expect(engines.map((e) => e.engine.name)).toEqual(builtinEngines.map((e) => e.name));
    const missing = [];
    for (const { engine } of engines) {
      const availability = await engine.available();
      if (!availability.ok) missing.push(`${engine.name}: ${availability.reason}`);
    }
    expect(missing).toEqual([]);
  });

  it.each(engines.map((e) => [e.engine.name, e] as const))(
    '%s: the seconds add up to the cell, the histogram holds every answer',
    async (name, e) => {
      const cell = await runCell(e.engine, {
        concurrency: [e.shape.connections],
        durationSeconds: 2,
        // a warm-up for one engine only: each costs its seconds; one second, not until steady (up to --warmup-max's 10)
        warmupSeconds: name === engines[0]?.engine.name ? 1 : 0,
        warmupMaxSeconds: 1,
        timeoutSeconds: 10,
        ...(e.shape.rate !== undefined ? { rate: e.shape.rate } : {}),
      });
      const points = measured(cell);
      expect(points.length).toBeGreaterThanOrEqual(2);
      expect(points.length).toBeLessThanOrEqual(4);
      expect(points.map((p) => p.t)).toEqual(points.map((_, i) => i));
      expect(points.every((p) => p.seconds > 0 && p.seconds <= 1)).toBe(true);
      // within one second's worth at the edges (where a run's start and end fall between two seconds)
      const sum = points.reduce((s, p) => s + p.requests, 0);
      expect(Math.abs(sum - cell.requests)).toBeLessThanOrEqual(cell.rps);
      expect(cell.requests).toBeGreaterThan(0);
      // the warm-up's seconds come first, at negative t
      const warmup = (cell.series ?? []).filter((p) => p.phase === 'warmup');
      if (name === engines[0]?.engine.name) {
        expect(warmup.at(-1)?.t).toBe(-1);
        expect(warmup.reduce((s, p) => s + p.requests, 0)).toBeGreaterThan(0);
      } else expect(warmup).toEqual([]);
      // the generator's CPU, second by second
      expect(points.some((p) => p.client !== undefined)).toBe(true);

      expect(cell.histogram).toBeDefined();
      const histogram = decodeLatencyHistogram(cell.histogram!);
      if (name === 'wrk') {
        // wrk adds synthetic samples for slow answers to its histogram before bench sees it (its percentiles include them)
        expect(histogram.totalCount).toBeGreaterThanOrEqual(cell.requests);
        expect(points.every((p) => p.latency === undefined)).toBe(true);
      } else {
        expect(histogram.totalCount).toBe(cell.requests);
        const decoded = summarizeLatency(histogram);
        expect([decoded.p50, decoded.p90, decoded.p99]).toEqual([cell.latency.p50, cell.latency.p90, cell.latency.p99]);
        expect(points.filter((p) => p.requests > 0).every((p) => p.latency !== undefined)).toBe(true);
      }
      histogram.destroy();
    },
  );

  // The server stops answering 1.75 s after the load began and answers again at 4.25 s: seconds 2 and 3
  // have no answer, 1 and 4 have some. The 0.25 s either side absorbs the gap between the engine's
  // start of its seconds and the server's sight of the first requests.
  const stallers = engines.filter(({ engine }) => engine.name === 'autocannon' || engine.name === 'wrk');
  it.each(stallers.map((e) => [e.engine.name, e] as const))(
    '%s: a server stalled for 2 s in a 6 s run shows 2 seconds with no answers',
    async (_name, e) => {
      const cell = await runCell(
        e.engine,
        { concurrency: [8], durationSeconds: 6, warmupSeconds: 0, timeoutSeconds: 10 },
        { STALL_AFTER_MS: '1750', STALL_MS: '2500' },
      );
      const points = measured(cell);
      expect(points.slice(0, 6).map((p) => p.requests === 0)).toEqual([false, false, true, true, false, false]);
      // wrk's threads see the end of the period at their next 100 ms tick: their last answers may fall in a sliver of a 7th second
      expect(points.slice(6).every((p) => p.seconds < 0.5)).toBe(true);
      expect(points.every((p) => p.failures.timeouts === 0)).toBe(true);
    },
  );
});
