import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { Scenario } from '@bench/core';
import { folderOf } from './folder.js';

/**
 * Copies what a web server must read for a scenario (its folder: scripts and fixtures, and the
 * shared lib/ beside it) into the run's private dir, and returns the scenario as served from there.
 * Apache's children run as another account when bench runs as root; they can read the private
 * dir (handed to that account) wherever the checkout is, a 0700 home directory included.
 */
export function stageSite(scenario: Scenario, dir: string): Scenario {
  const folder = folderOf(scenario);
  const site = path.join(dir, 'site');
  const staged = path.join(site, path.basename(folder.dir));
  cpSync(folder.dir, staged, { recursive: true, filter: (source) => !source.endsWith('.ts') });
  const lib = path.join(folder.dir, '..', 'lib');
  if (existsSync(lib)) cpSync(lib, path.join(site, 'lib'), { recursive: true, filter: (source) => !source.endsWith('.ts') });
  return { ...scenario, folder: { ...folder, dir: staged, fixturesDir: path.join(staged, 'fixtures') } };
}
