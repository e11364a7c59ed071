import { existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinScenarios, resolveRunOptions, runBench } from '@bench/runner';
import { onLoadOf, soakFixture, soakFixtureProcesses } from '../support/soak-fixture.js';
import { benchTempDirs, newTempDirs } from '../support/leaks.js';

const scenarios = builtinScenarios();
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a target killed with SIGKILL mid-cell', () => {
  it('fails that cell with the second it died and its last output, keeps the seconds before, and the next cell runs', async () => {
    const pidFile = path.join(os.tmpdir(), `benchtest-doomed-${process.pid}.pid`);
    const options = resolveRunOptions(
      { scenarios: ['hello'] },
      // killed 2 s in, 3 s before its cell would end; the other target's cells run their 5 s each
      { concurrency: [2], durationSeconds: 5, warmupSeconds: 0, timeoutSeconds: 2 },
    );
    const doomed = soakFixture('doomed', { DELAY_MS: '10', PID_FILE: pidFile });
    const after = soakFixture('after', { DELAY_MS: '10' });
    const temps = benchTempDirs();
    let killed: number | undefined;
    const doc = await runBench(
      { ...options, concurrency: [2, 3], targets: ['doomed', 'after'], seed: 1 },
      {
        targets: [doomed, after],
        scenarios,
        reporters: [],
        // killed once its load has run two whole seconds
        onEvent: onLoadOf('doomed', pidFile, (pid, elapsed) => {
          if (elapsed < 2 || killed !== undefined) return;
          killed = pid;
          process.kill(pid, 'SIGKILL');
        }),
      },
    );
    rmSync(pidFile, { force: true });
    const doomedCells = doc.results.filter((r) => r.target === 'doomed');
    expect(doomedCells.map((r) => r.status)).toEqual(['failed', 'failed']);
    const error = doomedCells[0]?.error ?? '';
    expect(error).toMatch(
      /^target died during the run: in second \d+ \(\d+\.\d s in\): doomed killed by SIGKILL; last output: soak fixture listening/,
    );
    const second = Number(/in second (\d+)/.exec(error)?.[1]);
    expect(second).toBeGreaterThanOrEqual(2);
    // every second up to the one it died in, each measured, the whole ones with answers
    const seconds = doomedCells[0]?.series ?? [];
    expect(seconds.map((s) => s.t)).toEqual(Array.from({ length: second + 1 }, (_, t) => t));
    expect(seconds.every((s) => s.phase === 'measure')).toBe(true);
    expect(seconds.slice(0, second).every((s) => s.requests > 0)).toBe(true);
    expect(doc.results.filter((r) => r.target === 'after').map((r) => r.status)).toEqual(['ok', 'ok']);
    expect(doc.complete).toBe(true);
    expect(alive(killed!)).toBe(false);
    expect(soakFixtureProcesses(['doomed', 'after'])).toEqual([]);
    // the stack dirs of this run's two servers (other runs on the machine may hold dirs of their own meanwhile)
    const ours = (dir: string) => ['doomed.log', 'after.log'].some((log) => existsSync(path.join(os.tmpdir(), dir, log)));
    expect((await newTempDirs(temps)).filter(ours)).toEqual([]);
  }, 60_000);
});
