import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The files that take a minute or so here (soak-leak holds a load for one): vitest starts files it has timed before
// longest first, but on a clean clone it knows no durations, and a long file started last runs on alone at the end.
// These start first; every other file keeps vitest's own order. The engines' conformance files mostly wait on their
// cases' timers (55 s of wall for 4 s of CPU): started among the files that keep the cores busy, not after them, where
// they left the last minute of the parallel files nearly idle.
const startFirst = [
  'test/soak/soak-leak.test.ts',
  'test/targets/verify-matrix.test.ts',
  'test/targets/verify-matrix-second.test.ts',
  'test/engines/conformance/open-loop.test.ts',
  'test/compare/ci-recipe.test.ts',
  'test/compare/ci-recipe-same.test.ts',
  'test/targets/java-targets.test.ts',
  'test/engines/conformance/wrk.test.ts',
  'test/app/registry-install.test.ts',
  'test/run/pinning.test.ts',
  'test/engines/conformance/autocannon.test.ts',
  'test/hygiene/kill-runner.test.ts',
  'test/suites/php-sapi-centos5.test.ts',
  'test/engines/conformance/h2load.test.ts',
  'test/app/app-repo.test.ts',
  'test/engines/conformance/k6.test.ts',
];

const rank = (spec: TestSpecification) => {
  const at = startFirst.findIndex((file) => spec.moduleId.endsWith(file));
  return at < 0 ? startFirst.length : at;
};

export default class StartLongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const order = new Map(sorted.map((spec, index) => [spec, index]));
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    return [...sorted].sort((a, b) => group(a) - group(b) || rank(a) - rank(b) || order.get(a)! - order.get(b)!);
  }
}
