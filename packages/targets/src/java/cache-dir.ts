import { accessSync, constants, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Where compiled servlets and fetched jars are kept between runs: $XDG_CACHE_HOME/bench/java, or
 * ~/.cache/bench/java (never inside the checkout). Undefined when it cannot be created (a home the
 * user cannot write): the caller then works in the run's private dir, without a cache.
 */
export function javaCacheDir(): string | undefined {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const dir = path.join(base, 'bench', 'java');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    accessSync(dir, constants.W_OK);
    return dir;
  } catch {
    return undefined;
  }
}
