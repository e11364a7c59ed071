import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { Availability, Scenario } from '@bench/core';
import { folderOf } from './folder.js';

export const cores = (): number => os.availableParallelism();

const versions = new Map<string, string>();

/**
 * First match of `pattern` in what `binary args` prints on stdout and stderr together (nginx -v
 * writes to stderr), or 'unknown'. Asked once per process: every start records its versions, and a
 * synchronous probe at each one held up the runner (and the stacks `verify --jobs` starts beside it).
 */
export function versionFrom(binary: string, args: readonly string[], pattern: RegExp): string {
  const key = JSON.stringify([binary, args, pattern.source]);
  let version = versions.get(key);
  if (version === undefined) {
    const run = spawnSync(binary, [...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 5000 });
    version = pattern.exec(`${run.stdout ?? ''}${run.stderr ?? ''}`)?.[1] ?? 'unknown';
    versions.set(key, version);
  }
  return version;
}

export interface Requirement {
  readonly binary: string;
  readonly path: string | undefined;
  readonly aptPackage: string;
}

/** Availability from required binaries (or module files): what is missing and the packages that bring it. */
export function availabilityOf(requirements: readonly Requirement[], versions: () => Record<string, string>): Availability {
  const missing = requirements.filter((r) => !r.path);
  if (missing.length > 0) {
    const aptPackages = [...new Set(missing.map((r) => r.aptPackage))];
    return { ok: false, reason: `${missing.map((r) => r.binary).join(', ')} not found (apt-get install ${aptPackages.join(' ')})`, aptPackages };
  }
  return { ok: true, versions: versions() };
}

/** The folder a web server serves a scenario from: the static file's folder, or the scenario folder (its script). */
export function documentRoot(scenario: Scenario): string {
  const folder = folderOf(scenario);
  return folder.kind === 'static' && folder.staticFile ? path.dirname(path.join(folder.dir, folder.staticFile)) : folder.dir;
}
