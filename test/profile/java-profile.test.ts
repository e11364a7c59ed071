import { describe, expect, it } from 'vitest';
import { decodeFoldedStacks, functionCosts } from '@bench/core';
import { builtinScenarios, resolveRunOptions, runBench } from '@bench/runner';
import { builtinTargets } from '@bench/targets';

// A Java target is profiled by the JDK's Flight Recorder, started and stopped in its JVM with jcmd.
describe('--profile on a Java target', () => {
  it("names the servlet's own method among the top frames of Tomcat under the loop scenario", async () => {
    const tomcat = builtinTargets.find((t) => t.name === 'java-tomcat')!;
    const scenarios = builtinScenarios().filter((s) => s.name === 'loop');
    // a fixed second of warm-up: the JVM's JIT is warmed at its start, and until steady the warm-up took 7 s here
    const options = resolveRunOptions(
      { scenarios: ['loop'] },
      { concurrency: [4], durationSeconds: 4, warmupSeconds: 1, warmupMaxSeconds: 1, profile: true },
    );
    const doc = await runBench({ ...options, targets: ['java-tomcat'] }, { targets: [tomcat], scenarios, reporters: [] });
    const [cell] = doc.results;
    expect(cell?.status, cell?.error).toBe('ok');
    expect(cell?.profile?.profilers).toEqual(['jfr (1 process)']);
    // 4 s of load: 2 s gave JFR exactly 10 samples once in a clean-clone run (more than 10 are asked to rank frames)
    expect(cell?.profile?.samples).toBeGreaterThan(10);
    const costs = functionCosts(decodeFoldedStacks(cell!.profile!.stacks));
    const sampled = costs.reduce((sum, f) => sum + f.self, 0);
    // Tomcat calls a servlet some 30 frames deep, so a rank by total puts its callers first: the servlet is
    // named by its share, in most samples of the threads busy serving the loop
    const doGet = costs.find((f) => f.name === 'bench.scenario.s_loop.ScenarioServlet.doGet');
    expect(
      doGet?.total ?? 0,
      costs
        .slice(0, 10)
        .map((f) => `${f.name} ${f.self}/${f.total}`)
        .join('\n'),
    ).toBeGreaterThan(sampled * 0.3);
  });
});
