import { defineConfig } from 'vitest/config';

// Unit tests run in parallel; integration tests start real servers and drive load on a shared
// 2-core machine, so they run one file at a time.
export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'scenarios/**/*.test.ts', 'suites/src/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
