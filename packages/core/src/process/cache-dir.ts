import { accessSync, constants, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Where builds (compiled servlets, fetched jars, article 002's compiled clients) are kept between
 * runs: $XDG_CACHE_HOME/bench/<kind>, or ~/.cache/bench/<kind> (never inside the checkout).
 * Undefined when it cannot be created (a home the user cannot write): the caller then works in
 * the run's private dir, without a cache.
 */
export function benchCacheDir(kind: string): string | undefined {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const dir = path.join(base, 'bench', kind);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    accessSync(dir, constants.W_OK);
    return dir;
  } catch {
    return undefined;
  }
}
