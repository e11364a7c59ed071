import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ceilingLine, ceilingsOf, cheaperEngineLine, costsOf, readCeilings, saveCeilings } from './ceilings.js';
import { selfbenchRow as row, selfbenchRows } from '../../core/test-fixtures/selfbench-rows.js';

const rows = selfbenchRows;

const previous = process.env.XDG_CACHE_HOME;
afterEach(() => {
  if (previous === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = previous;
});

describe('engine ceilings', () => {
  it('are the best median rps per client CPU-second over the stacks, per engine and thread count', () => {
    expect(ceilingsOf(rows)).toEqual([
      { engine: 'autocannon', threads: 1, target: 'nginx-static', rpsPerClientCpuSecond: 64_000, rps: 64_000 },
      { engine: 'autocannon', threads: 2, target: 'nginx-static', rpsPerClientCpuSecond: 60_000, rps: 66_000 },
      { engine: 'wrk', threads: 1, target: 'nginx-static', rpsPerClientCpuSecond: 140_000, rps: 140_000 },
    ]);
  });

  it("are saved in bench's cache dir and read back on this machine as one line per engine", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'benchtest-ceilings-'));
    try {
      process.env.XDG_CACHE_HOME = dir;
      expect(readCeilings()).toBeUndefined();
      expect(ceilingLine('autocannon', readCeilings())).toBe('not measured here (bench selfbench)');
      const file = saveCeilings(rows, '-c 50', new Date('2026-11-23T21:00:00Z'));
      expect(file).toBe(path.join(dir, 'bench', 'selfbench', 'last-selfbench.json'));
      const saved = readCeilings();
      expect(ceilingLine('autocannon', saved)).toBe(
        '64,000 rps per client CPU-second, 2 threads 60,000 (selfbench 2026-11-23, nginx-static)',
      );
      expect(ceilingLine('ab', saved)).toBe('not measured here (bench selfbench)');
      // a later selfbench of one engine keeps the others' ceilings
      saveCeilings([row('nginx-static', 'ab', 1, 800_000, 5)], '-c 50', new Date('2026-11-24T21:00:00Z'));
      expect(readCeilings()?.ceilings.map((c) => `${c.engine} ${c.threads}`)).toEqual(['ab 1', 'autocannon 1', 'autocannon 2', 'wrk 1']);
      // and their costs per stack, with the day they were measured
      expect(readCeilings()?.costs?.map((c) => `${c.engine} ${c.target} ${c.measuredAt.slice(0, 10)}`)).toEqual([
        'autocannon nginx-static 2026-11-23',
        'autocannon node 2026-11-23',
        'autocannon nginx-static 2026-11-23',
        'wrk nginx-static 2026-11-23',
        'ab nginx-static 2026-11-24',
      ]);
      // another machine's file, or a damaged one, is not this machine's ceiling
      writeFileSync(file!, JSON.stringify({ ...saved, hostname: 'elsewhere' }));
      expect(readCeilings()).toBeUndefined();
      writeFileSync(file!, '{');
      expect(readCeilings()).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const savedFrom = (costs: ReturnType<typeof costsOf>) => ({
    measuredAt: '2026-11-23T21:00:00Z',
    hostname: os.hostname(),
    cpuModel: 'x',
    cpus: 2,
    setting: '-c 50',
    ceilings: [],
    costs,
  });

  it('name a cheaper engine only among those that can drive the cell, compared on the same stack of one selfbench', () => {
    const saved = savedFrom(costsOf(rows, '2026-11-23T21:00:00Z'));
    expect(cheaperEngineLine('autocannon', () => true, saved)).toBe(
      "wrk costs 7.1 µs of client CPU per request here against autocannon's 15.6 (nginx-static, -c 50, selfbench 2026-11-23): --engine wrk",
    );
    // a flow wrk cannot run, say: no hint rather than one that would be refused
    expect(cheaperEngineLine('autocannon', (engine) => engine !== 'wrk', saved)).toBeUndefined();
    expect(cheaperEngineLine('wrk', () => true, saved)).toBeUndefined();
    // an engine never measured here: the cheapest one's cost, on its own
    expect(cheaperEngineLine('k6', () => true, saved)).toBe(
      'wrk costs 7.1 µs of client CPU per request here (nginx-static, -c 50, selfbench 2026-11-23): --engine wrk',
    );
  });

  it('never compare engines measured on different stacks or in different selfbench runs', () => {
    const autocannonOnNode = costsOf([row('node', 'autocannon', 1, 100_000, 2)], '2026-11-23T21:00:00Z');
    const wrkOnNginx = costsOf([row('nginx-static', 'wrk', 1, 700_000, 5)], '2026-11-24T21:00:00Z');
    const wrkOnNodeLater = costsOf([row('node', 'wrk', 1, 700_000, 5)], '2026-11-24T21:00:00Z');
    // wrk was never measured beside autocannon: its own figure, with no comparison
    expect(cheaperEngineLine('autocannon', () => true, savedFrom([...autocannonOnNode, ...wrkOnNginx, ...wrkOnNodeLater]))).toBe(
      'wrk costs 7.1 µs of client CPU per request here (nginx-static, -c 50, selfbench 2026-11-24): --engine wrk',
    );
    // nor when it cost more than the least this engine cost anywhere
    const wrkSlowerLater = costsOf([row('node', 'wrk', 1, 100_000, 5)], '2026-11-24T21:00:00Z');
    expect(cheaperEngineLine('autocannon', () => true, savedFrom([...autocannonOnNode, ...wrkSlowerLater]))).toBeUndefined();
    // an engine measured beside this one and not cheaper there is not offered on another run's figure
    const besideAndDearer = costsOf([row('node', 'autocannon', 1, 100_000, 2), row('node', 'wrk', 1, 50_000, 2)], '2026-11-25T21:00:00Z');
    expect(cheaperEngineLine('autocannon', () => true, savedFrom([...besideAndDearer, ...wrkOnNginx]))).toBeUndefined();
    // at the highest -c both ran in one selfbench
    const both = costsOf(
      [
        row('node', 'autocannon', 1, 100_000, 2),
        row('node', 'wrk', 1, 400_000, 4),
        row('node', 'autocannon', 1, 100_000, 3, 3000),
        row('node', 'wrk', 1, 300_000, 4, 3000),
      ],
      '2026-11-25T21:00:00Z',
    );
    expect(cheaperEngineLine('autocannon', () => true, savedFrom(both))).toBe(
      "wrk costs 13.3 µs of client CPU per request here against autocannon's 30.0 (node, -c 3000, selfbench 2026-11-25): --engine wrk",
    );
  });
});
