import { describe, expect, it } from 'vitest';
import { builtinTargets } from '@bench/targets';
import { builtinScenarios, resolveRunOptions, runCells } from '@bench/runner';
import { misbehavingTarget } from '../support/failing-targets.js';
import { leftoverServers, serverProcesses } from '../support/processes.js';

const options = resolveRunOptions({ scenarios: ['hello'] }, { concurrency: [2], durationSeconds: 1, warmupSeconds: 0, timeoutSeconds: 2 });
const scenarios = builtinScenarios();
const node = builtinTargets.find((t) => t.name === 'node')!;

describe('targets that fail', () => {
  it('one that dies at start-up gives a failed cell with the tail of its output, and the run goes on', async () => {
    const broken = misbehavingTarget('broken', 'exit-at-start');
    const before = serverProcesses();
    const doc = await runCells({ ...options, targets: ['broken', 'node'] }, { targets: [broken, node], scenarios, reporters: [] });
    const [failed, ok] = doc.results;
    expect(failed).toMatchObject({ target: 'broken', status: 'failed' });
    expect(failed?.error).toMatch(/exited with code 3.*cannot open config/);
    expect(ok).toMatchObject({ target: 'node', status: 'ok' });
    expect(doc.complete).toBe(true);
    expect(await leftoverServers(before)).toEqual([]);
  });

  it('one that dies mid-run marks that cell failed with what was seen, and the run goes on', async () => {
    const dying = misbehavingTarget('dying', 'die-after-ms', 2000);
    const doc = await runCells(
      // at a held rate: node's cells only have to run whole
      { ...options, concurrency: [2, 3], durationSeconds: 3, rate: 300, targets: ['dying', 'node'] },
      { targets: [dying, node], scenarios, reporters: [] },
    );
    const dyingCells = doc.results.filter((r) => r.target === 'dying');
    expect(dyingCells).toHaveLength(2);
    expect(dyingCells[0]?.status).toBe('failed');
    expect(dyingCells[0]?.error).toMatch(/died during the run: .*out of memory \(simulated\)/);
    expect(dyingCells[1]?.status).toBe('failed');
    expect(doc.results.filter((r) => r.target === 'node').every((r) => r.status === 'ok')).toBe(true);
  });

  it('one that answers wrongly is never measured', async () => {
    const wrong = misbehavingTarget('wrong', 'wrong-body');
    const doc = await runCells({ ...options, targets: ['wrong'] }, { targets: [wrong], scenarios, reporters: [] });
    expect(doc.results[0]).toMatchObject({ status: 'failed', requests: 0 });
    expect(doc.results[0]?.error).toMatch(/verification failed: body is 7 bytes, expected 11/);
  });
});
