import { describe, expect, it } from 'vitest';
import type { SelfbenchRow } from '@bench/core';
import { renderSelfbench } from './render-selfbench.js';

const row = (target: string, engine: string, threads: number, requests: number, cpuSeconds: number): SelfbenchRow => ({
  target,
  scenario: 'hello',
  engine,
  threads,
  round: 1,
  first: 'bench',
  bench: { rps: requests / 5, requests, cpuSeconds },
  bare: { rps: requests / 5, requests, cpuSeconds },
});

const rows = [
  row('nginx-static', 'autocannon', 1, 300_000, 5),
  row('nginx-static', 'autocannon', 1, 340_000, 5),
  row('nginx-static', 'autocannon', 1, 320_000, 5),
  row('node', 'autocannon', 1, 100_000, 2),
  row('nginx-static', 'autocannon', 2, 330_000, 5.5),
  row('nginx-static', 'wrk', 1, 700_000, 5),
  // an open loop at a set rate: what that load costs, not a ceiling
  { ...row('nginx-static', 'open-loop', 1, 10_000, 1), bare: undefined, rate: 2000 },
];

describe('the selfbench table', () => {
  it('shows every round and the medians, the open loop at its rate with no bare tool and no ratio', () => {
    const text = renderSelfbench(rows, '-c 50');
    expect(text).toMatch(/^\| nginx-static \| open-loop at 2,000 rps \| 1 \| 1 \| - \| 2,000 \| - \| - \| 10,000 \| - \|$/m);
    expect(text).toMatch(/^\| nginx-static \| open-loop at 2,000 rps \| 1 \| - \| 2,000 \| 10,000 \|$/m);
    expect(text).toMatch(/^\| nginx-static \| wrk \| 1 \| 1\.00 \| 140,000 \| 140,000 \|$/m);
    expect(text).toMatch(/not a ceiling/);
  });
});
