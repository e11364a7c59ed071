import { describe, expect, it } from 'vitest';
import { selfbenchRow, selfbenchRows as rows } from '../../../core/test-fixtures/selfbench-rows.js';
import { fixtureDocument } from '../../test-fixtures/document.js';
import { renderSelfbench } from './render-selfbench.js';

describe('the selfbench table', () => {
  it('shows every round and the medians, the open loop at its rate with no bare tool and no ratio', () => {
    const text = renderSelfbench(rows, '-c 50');
    expect(text).toMatch(
      /^\| nginx-static \| 50 \| open-loop at 2,000 rps \| 1 \| 1 \| - \| 2,000 \| - \| - \| 10,000 \| - \| 100 \| - \|$/m,
    );
    expect(text).toMatch(/^\| nginx-static \| 50 \| open-loop at 2,000 rps \| 1 \| - \| 2,000 \| 10,000 \| 100 \| - \| - \| - \|$/m);
    expect(text).toMatch(
      /^\| nginx-static \| 50 \| wrk \| 1 \| 1\.00 \| 140,000 \| 140,000 \| 7\.1 \| 7\.1 \| 1\.00 \(bare wrk\) \| - \|$/m,
    );
    expect(text).toMatch(/not a ceiling/);
  });

  it("holds an engine's requests at a set rate against its own closed loop in the same rounds", () => {
    const wire = (rate: number | undefined, cpuSeconds: number, round: number) => ({
      ...selfbenchRow('node', 'wire', 1, 100_000, cpuSeconds, 50),
      round,
      bare: undefined,
      bench: { rps: 20_000, requests: 100_000, cpuSeconds },
      ...(rate !== undefined ? { rate } : {}),
    });
    const rounds = [1.2, 1.3, 1.25].flatMap((atTwenty, i) => [
      wire(undefined, 1.0, i + 1),
      wire(20_000, atTwenty, i + 1),
      wire(30_000, 1.1, i + 1),
    ]);
    const text = renderSelfbench(rounds, '-c 50');
    // 10 µs a request closed; 12.5 (the median of 12, 13 and 12.5) at 20,000 rps, 11 at 30,000
    expect(text).toMatch(/^\| node \| 50 \| wire \| 1 \| - \| 20,000 \| 100,000 \| 10 \| - \| - \| - \|$/m);
    expect(text).toMatch(
      /^\| node \| 50 \| wire at 20,000 rps \| 1 \| - \| 20,000 \| 80,000 \| 12\.5 \| - \| 1\.25 \(its closed loop\) \| - \|$/m,
    );
    expect(text).toMatch(
      /^\| node \| 50 \| wire at 30,000 rps \| 1 \| - \| 20,000 \| 90,909 \| 11 \| - \| 1\.10 \(its closed loop\) \| - \|$/m,
    );
  });

  it('says of each rate whether every round held it, and how late the loop sent at its p50 and p99', () => {
    const atRate = (rate: number, rps: number, round: number, p50: number) => ({
      ...selfbenchRow('node', 'wire', 1, rps * 5, 1, 50),
      round,
      bare: undefined,
      rate,
      bench: { rps, requests: rps * 5, cpuSeconds: 1, lateMs: { p50, p99: p50 * 10 } },
    });
    const text = renderSelfbench(
      [atRate(20_000, 20_000, 1, 0.1), atRate(20_000, 19_900, 2, 0.3), atRate(20_000, 20_050, 3, 0.2), atRate(50_000, 48_000, 1, 4)],
      '-c 50',
    );
    // 19,900 is within 1% of 20,000; 48,000 is 4% short of 50,000
    expect(text).toMatch(/^\| node \| 50 \| wire \| 1 \| 20,000 \| 20,000 \/ 19,900 \/ 20,050 \| yes \| 0\.2 \| 2 \|$/m);
    expect(text).toMatch(/^\| node \| 50 \| wire \| 1 \| 50,000 \| 48,000 \| no \| 4 \| 40 \|$/m);
  });

  it('names the machine the figures were taken on, when told', () => {
    const machine = fixtureDocument().machine;
    expect(renderSelfbench(rows, '-c 50', machine)).toMatch(/-c 50, on 2 x Test CPU, 16(\.0)? GiB, linux 6\.1, Node v20\.20\.2;/);
    expect(renderSelfbench(rows, '-c 50')).not.toMatch(/, on /);
  });

  it('sets each engine’s client CPU per request beside the cheapest bare tool’s, and the memory a connection adds', () => {
    const wire = (connections: number, rss: number, lag: number) => ({
      ...selfbenchRow('node', 'wire', 1, 100_000, 0.8, connections),
      bare: undefined,
      bench: { rps: 20_000, requests: 100_000, cpuSeconds: 0.8, rssBytes: rss, eventLoopP99Ms: lag },
    });
    const wrk = (connections: number, rss: number) => {
      const r = selfbenchRow('node', 'wrk', 1, 100_000, 0.7, connections);
      return { ...r, bare: { ...r.bare!, rssBytes: rss } };
    };
    const text = renderSelfbench(
      [wrk(50, 4_000_000), wire(50, 100_000_000, 10.5), wrk(3000, 7_000_000), wire(3000, 120_000_000, 12)],
      '-c 50,3000',
    );
    // 8 µs against wrk's 7
    expect(text).toMatch(/^\| node \| 3000 \| wire \| 1 \| - \| 20,000 \| 125,000 \| 8 \| - \| 1\.14 \(bare wrk\) \| 12 \|$/m);
    // (120 - 100) MB over 2,950 connections; wrk's 3 MB over them
    expect(text).toMatch(/^\| node \| wire \| 1 \| 6\.6 \| - \|$/m);
    expect(text).toMatch(/^\| node \| wrk \| 1 \| - \| 1 \|$/m);
  });
});
