import { describe, expect, it } from 'vitest';
import { decodeFoldedStacks } from '@bench/core';
import { builtinScenarios, resolveRunOptions, runBench } from '@bench/runner';
import { builtinTargets } from '@bench/targets';

// nginx and PHP-FPM are profiled by perf. Debian builds them without frame pointers, so perf unwinds their stacks
// from DWARF: each stack runs from the process's root (_start) to the sampled function, where unwinding by frame
// pointer (perf -g) stopped after a frame or two.
describe('--profile on a stack perf samples', () => {
  it('unwinds the stacks of binaries built without frame pointers from DWARF, and says so', async () => {
    const target = builtinTargets.find((t) => t.name === 'php-fpm')!;
    const scenarios = builtinScenarios().filter((s) => s.name === 'hello');
    const options = resolveRunOptions(
      { scenarios: ['hello'] },
      {
        concurrency: [4],
        durationSeconds: 1.5,
        warmupSeconds: 0.5,
        warmupMaxSeconds: 0.5,
        profile: true,
        cpus: { server: '0', client: '1' },
      },
    );
    const doc = await runBench({ ...options, targets: ['php-fpm'] }, { targets: [target], scenarios, reporters: [] });
    const [cell] = doc.results;
    expect(cell?.status, cell?.error).toBe('ok');
    expect(cell?.profile?.profilers[0]).toMatch(/^perf \(\d+ processes\)$/);
    expect(cell?.profile?.notes).toContainEqual(
      expect.stringMatching(/^perf unwound the stacks from DWARF \(--call-graph dwarf\) as .*nginx.* built without frame pointers/),
    );
    const stacks = [...decodeFoldedStacks(cell!.profile!.stacks)];
    const samples = stacks.reduce((sum, [, n]) => sum + n, 0);
    const rooted = stacks.filter(([stack]) => stack.split(';')[1] === '_start').reduce((sum, [, n]) => sum + n, 0);
    expect(samples).toBeGreaterThan(10);
    expect(rooted / samples, stacks.slice(0, 5).join('\n')).toBeGreaterThan(0.5);
  });
});
