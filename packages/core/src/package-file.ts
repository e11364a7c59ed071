import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A file a package ships, by its path from the package's root: `packageFile(import.meta.url, 'dist', 'x.js')`. The root
 * is the nearest folder above the calling module with a package.json, so one call works from a module in dist/ and
 * from the bundle that holds it (dist/bundle/, see scripts/build/bundle-packages.mjs).
 */
export function packageFile(moduleUrl: string, ...segments: string[]): string {
  const module = fileURLToPath(moduleUrl);
  let dir = path.dirname(module);
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    // a module outside any package: bench's own files are never installed that way
    if (parent === dir) throw new Error(`no package.json in any folder above ${module}`);
    dir = parent;
  }
  return path.join(dir, ...segments);
}
