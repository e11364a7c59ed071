import { describe, expect, it } from 'vitest';
import { findSuite, loadSuites, suiteRunLayers, TIME_SHAPE_FLOOR_SECONDS, type Suite, type SuiteRun } from '@bench/suites';
import { resolveRunOptions } from '../options/resolve.js';
import type { RunOptionInput } from '../options/declarations.js';
import type { Project } from '../project/project.js';
import { runnerSuiteHost } from './runner-suite-host.js';

const host = runnerSuiteHost({ project: { targets: [], scenarios: [], engines: [] } as unknown as Project });
const suiteRunOptions = (suite: Suite, run: SuiteRun, scale: number) => suiteRunLayers(host, suite, run, scale) as RunOptionInput[];

describe("a suite run's options", () => {
  it("take the article's time in place of its request count", () => {
    const suite = findSuite('php-sapi-centos5');
    const run = suite.definition.runs.find((r) => r.id === 'modes')!;
    const resolved = resolveRunOptions({ scenarios: run.scenarios }, {}, ...suiteRunOptions(suite, run, 1), { repeat: 3 });
    expect(resolved.durationSeconds).toBe(TIME_SHAPE_FLOOR_SECONDS);
    expect(resolved.requests).toBeUndefined();
    expect(resolved.repeat).toBe(3);
  });

  it('of every suite are options of bench run, at full scale and shrunk; one that is not is named with its suite and run', () => {
    for (const suite of loadSuites())
      for (const run of suite.definition.runs)
        for (const scale of [1, 0.01]) expect(() => suiteRunOptions(suite, run, scale), `${suite.definition.name} ${run.id}`).not.toThrow();
    const suite = findSuite('linuxfab-2000');
    const run = { ...suite.definition.runs[0]!, options: { ...suite.definition.runs[0]!.options, keepalive: false } };
    expect(() => suiteRunOptions(suite, run, 1)).toThrow(/suite linuxfab-2000, run .*: .*Unrecognized key: "keepalive"/);
  });
});
