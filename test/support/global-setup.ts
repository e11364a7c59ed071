import { benchTempDirs } from './leaks.js';

// The whole suite must leave no temp dir behind: bench's private dirs and the tests' own.
export default function leakCheck(): () => void {
  const before = new Set(benchTempDirs());
  return () => {
    const left = benchTempDirs().filter((name) => !before.has(name));
    if (left.length === 0) return;
    // vitest reports an error thrown here but keeps exit code 0: set it, so CI fails
    process.exitCode = 1;
    throw new Error(`the test suite left temp dirs behind: ${left.join(', ')}`);
  };
}
