import { defineConfig } from 'vitest/config';
import StartLongFirst from './test/support/start-long-first.js';

// Integration files that time or count what a busy machine would change run alone, after the others.
// (A warm-up's steadiness and an open loop's schedule are among them: beside Chromium and Prometheus they did not hold;
// so are a CPU-bound regression's verdict, undecided after 6 rounds beside three other files, and a JFR profile's
// sample count, 10 in 2 s there.)
const alone = [
  'test/compare/compare-runs.test.ts',
  'test/run/steady-and-stalls.test.ts',
  'test/profile/profile-compare.test.ts',
  'test/profile/java-profile.test.ts',
  // five seconds after a SIGKILL, exactly: MariaDB shutting down beside other files' load took longer
  'test/hygiene/kill-runner.test.ts',
  // an open loop's achieved rate around a 1 s stall: 971.75 of 1,000 rps beside three other files (the test asks 980)
  'test/engines/open-loop.test.ts',
  // a change point among six 1 s runs of an app: none was found beside three other files starting JVMs and Apaches
  'test/history/history.test.ts',
  // an identical head's verdict: beside three other files a clean-clone run read the same code 28-37% slower in all
  // five rounds and called it regressed (an earlier run, 5-8% in three)
  'test/compare/ci-recipe-same.test.ts',
];

// Files nothing may run beside, not even work that only takes CPU no test asks for (CI runs such work beside the alone
// files: .ci/run): what bounded a cell reads the whole machine's CPU (/proc/stat).
const quiet = ['test/run/limits.test.ts'];

// Integration files whose assertions hold however long the CPU makes them wait: they verify answers, errors, exit codes
// and what is left behind, never a time, a rate or a share of the CPU (CI runs them as idle work beside the alone files).
const untimed = [
  'test/targets/verify-matrix.test.ts',
  'test/targets/verify-matrix-second.test.ts',
  'test/targets/verify-postgres.test.ts',
  'test/protocols/every-target.test.ts',
  'test/hygiene/non-root.test.ts',
  'test/cli/cli-errors.test.ts',
  'test/cli/config-errors.test.ts',
  'test/docs/docs.test.ts',
  'test/run/cli-run.test.ts',
  'test/targets/perl-ssi-targets.test.ts',
  'test/targets/node-targets.test.ts',
  'test/targets/data-scenarios.test.ts',
];

// Unit files that time what they run (a warm-up's requests in 0.6 s, a live V8 profile of a 600 ms loop): they need the
// CPU when they ask for it. The other unit files compute and may wait for a CPU (CI runs them as idle work).
const timedUnits = ['packages/targets/src/java/warm-up.test.ts', 'packages/core/src/profile/profile-formats.test.ts'];
const unitFiles = ['packages/*/src/**/*.test.ts', 'packages/scenarios/**/*.test.ts'];
// Unit files of arithmetic only (seeded simulations), the same on every Node: `npm run test:node`, which the other
// Nodes run, leaves them out.
const sameOnEveryNode = ['packages/compare/src/paired-compare-simulated.test.ts'];

// Unit tests run in parallel. Integration files start real servers and drive load; each runs in a scope of its own
// (test/support/test-scope.ts runs before each: its own temp folder, and a marker its processes inherit), so files run
// side by side, five at a time: most of a file's time is spent waiting on servers to start and runs to last, and on 2
// cores four took the clean-clone CI run from 594 s (three) to 549 s; later, five took its files side by side from
// 366-383 s (four, the cores 95% busy, lint's idle work filling the gaps) to 345 s (97%). Six took them 311-331 s, but
// beside them Node 26's open loop on wire's net core sent 112 of 200 requests due in a second (docs/measurements.md,
// "The quiet part one file"). A worker imports the packages once for the files it runs, not once per file: 1.2 s of
// CPU a file (of a trivial file's 1.3) that way.
const SIDE_BY_SIDE = 5;

function integration(name: string, include: string[], groupOrder: number, more: { exclude?: string[]; fileParallelism?: boolean } = {}) {
  return {
    test: {
      name,
      isolate: false,
      include,
      setupFiles: ['test/support/test-scope.ts'],
      ...more,
      ...(more.fileParallelism === false ? {} : { maxWorkers: SIDE_BY_SIDE }),
      testTimeout: 180_000,
      hookTimeout: 120_000,
      sequence: { groupOrder },
    },
  };
}

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    sequence: { sequencer: StartLongFirst },
    projects: [
      {
        test: {
          name: 'unit',
          // one module graph per worker, not one per file: the unit files import the same packages, and importing them
          // afresh for each file took 45 s of CPU of the unit tests' 53 (24 s in all this way)
          isolate: false,
          include: unitFiles,
          exclude: ['**/node_modules/**', '**/dist/**', ...timedUnits, ...sameOnEveryNode],
          testTimeout: 30_000,
          // as many as the integration files beside them (vitest runs projects of one group with one worker count)
          maxWorkers: SIDE_BY_SIDE,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'unit-arithmetic',
          isolate: false,
          include: sameOnEveryNode,
          testTimeout: 120_000,
          maxWorkers: SIDE_BY_SIDE,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'unit-timed',
          isolate: false,
          include: timedUnits,
          testTimeout: 30_000,
          maxWorkers: SIDE_BY_SIDE,
          sequence: { groupOrder: 0 },
        },
      },
      integration('integration', ['test/**/*.test.ts'], 0, { exclude: ['**/node_modules/**', ...alone, ...quiet, ...untimed] }),
      integration('integration-untimed', untimed, 0),
      integration('integration-quiet', quiet, 1, { fileParallelism: false }),
      integration('integration-alone', alone, 2, { fileParallelism: false }),
    ],
  },
});
