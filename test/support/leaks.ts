import { readdirSync } from 'node:fs';
import os from 'node:os';

/** bench's private dirs (and the tests' own) now in the temp folder. */
export function benchTempDirs(): string[] {
  return readdirSync(os.tmpdir()).filter((name) => name.startsWith('bench-') || name.startsWith('benchtest-'));
}

/** Dirs present now that were not in `before`, waiting briefly for a stopping run to remove its own. */
export async function newTempDirs(before: readonly string[], graceMs = 3000): Promise<string[]> {
  const known = new Set(before);
  const deadline = Date.now() + graceMs;
  for (;;) {
    const added = benchTempDirs().filter((name) => !known.has(name) && !name.startsWith('benchtest-'));
    if (added.length === 0 || Date.now() > deadline) return added;
    await new Promise((r) => setTimeout(r, 100));
  }
}
