import { describe, expect, it } from 'vitest';
import { builtinScenarios, resolveRunOptions, runBench } from '@bench/runner';
import { soakFixture } from '../support/soak-fixture.js';

// One minute of light load (2 connections, 40 ms a request: about 50 rps) on each server at once:
// the leaking server and three runs of the same server without the leak.
const options = resolveRunOptions(
  { scenarios: ['hello'] },
  { concurrency: [2], durationSeconds: 60, warmupSeconds: 2, warmupMaxSeconds: 2, timeoutSeconds: 5 },
);
const scenarios = builtinScenarios();

async function soakOf(env: Record<string, string>) {
  const target = soakFixture('soak', { DELAY_MS: '40', ...env });
  const doc = await runBench({ ...options, targets: ['soak'] }, { targets: [target], scenarios, reporters: [] });
  const [cell] = doc.results;
  expect(cell?.status).toBe('ok');
  return cell!;
}

describe('a 60 s soak', () => {
  it('flags a server that keeps 40 KB per request as a possible leak, and not the same server without the leak in any of 3 runs', async () => {
    const [leaky, ...steadyRuns] = await Promise.all([soakOf({ LEAK_BYTES: '40960' }), soakOf({}), soakOf({}), soakOf({})]);
    expect(leaky.soak?.rss?.slopeMBPerMin).toBeGreaterThan(10);
    expect(leaky.soak?.coolDown).toMatchObject({ afterSeconds: 3, returned: false });
    expect(
      leaky.notes.filter((n) => /^server RSS grew [\d.]+ MB\/min, R² [01]\.\d\d: possible leak/.test(n)),
      JSON.stringify(leaky.soak),
    ).toHaveLength(1);
    for (const steady of steadyRuns) {
      expect(steady.soak?.rss).toBeDefined();
      expect(
        steady.notes.filter((n) => n.includes('possible leak')),
        JSON.stringify(steady.soak),
      ).toEqual([]);
    }
  }, 120_000);
});
