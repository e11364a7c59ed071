import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ceilingLine, ceilingsOf, cheaperEngineLine, readCeilings, saveCeilings } from './ceilings.js';
import { selfbenchRow as row, selfbenchRows } from '../../../core/test-fixtures/selfbench-rows.js';

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
      saveCeilings([row('nginx-static', 'ab', 1, 800_000, 5)], '-c 50');
      expect(readCeilings()?.ceilings.map((c) => `${c.engine} ${c.threads}`)).toEqual(['ab 1', 'autocannon 1', 'autocannon 2', 'wrk 1']);
      // another machine's file, or a damaged one, is not this machine's ceiling
      writeFileSync(file!, JSON.stringify({ ...saved, hostname: 'elsewhere' }));
      expect(readCeilings()).toBeUndefined();
      writeFileSync(file!, '{');
      expect(readCeilings()).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('name a cheaper engine only among those that can drive the cell', () => {
    const saved = {
      measuredAt: '2026-11-23T21:00:00Z',
      hostname: os.hostname(),
      cpuModel: 'x',
      cpus: 2,
      setting: '-c 50',
      ceilings: ceilingsOf(rows),
    };
    expect(cheaperEngineLine('autocannon', () => true, saved)).toBe(
      "wrk costs 7.1 µs of client CPU per request here against autocannon's 15.6 (selfbench 2026-11-23): --engine wrk",
    );
    // a flow wrk cannot run, say: no hint rather than one that would be refused
    expect(cheaperEngineLine('autocannon', (engine) => engine !== 'wrk', saved)).toBeUndefined();
    expect(cheaperEngineLine('wrk', () => true, saved)).toBeUndefined();
  });
});
