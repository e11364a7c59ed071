import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinScenarios, resolveRunOptions, runBench, type RunEvent } from '@bench/runner';
import { soakFixture, soakFixtureProcesses } from '../support/soak-fixture.js';
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

// The pid the fixture wrote, and a callback on the measured load's progress of one target (seconds since its load began).
function onLoadOf(target: string, pidFile: string, act: (pid: number, elapsedSeconds: number) => void) {
  let current = '';
  return (event: RunEvent) => {
    if (event.type === 'cell-start') current = event.phase === 'measure' ? event.target : '';
    if (event.type === 'cell-progress' && current === target) act(Number(readFileSync(pidFile, 'utf8')), event.progress.elapsedSeconds);
  };
}

describe('throughput drift', () => {
  it('is flagged when the server slows by 1 ms of CPU a request after half the run, not when it stays steady', async () => {
    const pidFile = path.join(os.tmpdir(), `benchtest-slowing-${process.pid}.pid`);
    // 4 connections, 2 ms a request (throughput bound by the delay), then 1 ms of CPU more per request from second 5 on
    const options = resolveRunOptions(
      { scenarios: ['hello'] },
      { concurrency: [4], durationSeconds: 10, warmupSeconds: 0, timeoutSeconds: 5 },
    );
    const slowing = soakFixture('slowing', { DELAY_MS: '2', PID_FILE: pidFile });
    const steady = soakFixture('steady', { DELAY_MS: '2' });
    let slowed = false;
    const doc = await runBench(
      { ...options, targets: ['slowing', 'steady'] },
      {
        targets: [slowing, steady],
        scenarios,
        reporters: [],
        onEvent: onLoadOf('slowing', pidFile, (pid, elapsed) => {
          if (elapsed < 4.5 || slowed) return;
          slowed = true;
          process.kill(pid, 'SIGUSR2');
        }),
      },
    );
    rmSync(pidFile, { force: true });
    const cell = (name: string) => doc.results.find((r) => r.target === name)!;
    expect(slowed).toBe(true);
    const seen = JSON.stringify(doc.results.map((r) => [r.target, r.notes, r.series?.map((p) => p.rps)]));
    expect(cell('slowing').soak?.rps?.driftPercent, seen).toBeLessThan(-20);
    expect(
      cell('slowing').notes.some((n) => /^throughput drifted -\d+(\.\d)?% from the first 5 s to the last .*rank test p = /.test(n)),
      seen,
    ).toBe(true);
    expect(cell('steady').status).toBe('ok');
    expect(
      cell('steady').notes.filter((n) => n.includes('drifted')),
      seen,
    ).toEqual([]);
  }, 60_000);
});

describe('a target killed with SIGKILL mid-cell', () => {
  it('fails that cell with the second it died and its last output, keeps the seconds before, and the next cell runs', async () => {
    const pidFile = path.join(os.tmpdir(), `benchtest-doomed-${process.pid}.pid`);
    const options = resolveRunOptions(
      { scenarios: ['hello'] },
      { concurrency: [2], durationSeconds: 8, warmupSeconds: 0, timeoutSeconds: 2 },
    );
    const doomed = soakFixture('doomed', { DELAY_MS: '1', PID_FILE: pidFile });
    const after = soakFixture('after', { DELAY_MS: '1' });
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
