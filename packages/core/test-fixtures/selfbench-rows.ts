import type { SelfbenchRow } from '../src/selfbench.js';

/** One selfbench round of `engine` on `target` at -c `connections`: the same requests and CPU through bench and bare. */
export const selfbenchRow = (
  target: string,
  engine: string,
  threads: number,
  requests: number,
  cpuSeconds: number,
  connections = 50,
): SelfbenchRow => ({
  target,
  scenario: 'hello',
  engine,
  connections,
  threads,
  round: 1,
  first: 'bench',
  bench: { rps: requests / 5, requests, cpuSeconds },
  bare: { rps: requests / 5, requests, cpuSeconds },
});

/** Three rounds of autocannon on nginx-static, one on node, one with two threads, wrk, and an open loop at a set rate. */
export const selfbenchRows: SelfbenchRow[] = [
  selfbenchRow('nginx-static', 'autocannon', 1, 300_000, 5),
  selfbenchRow('nginx-static', 'autocannon', 1, 340_000, 5),
  selfbenchRow('nginx-static', 'autocannon', 1, 320_000, 5),
  selfbenchRow('node', 'autocannon', 1, 100_000, 2),
  selfbenchRow('nginx-static', 'autocannon', 2, 330_000, 5.5),
  selfbenchRow('nginx-static', 'wrk', 1, 700_000, 5),
  // an open loop at a set rate: what that load costs, not a ceiling
  { ...selfbenchRow('nginx-static', 'open-loop', 1, 10_000, 1), bare: undefined, rate: 2000 },
];
