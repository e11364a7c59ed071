import os from 'node:os';
import path from 'node:path';
import type { Availability, Scenario } from '@bench/core';
import { folderOf } from './folder.js';

export const cores = (): number => os.availableParallelism();

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
    return {
      ok: false,
      reason: `${missing.map((r) => r.binary).join(', ')} not found (apt-get install ${aptPackages.join(' ')})`,
      aptPackages,
    };
  }
  return { ok: true, versions: versions() };
}

/** The folder a web server serves a scenario from: the static file's folder, or the scenario folder (its script). */
export function documentRoot(scenario: Scenario): string {
  const folder = folderOf(scenario);
  return folder.kind === 'static' && folder.staticFile ? path.dirname(path.join(folder.dir, folder.staticFile)) : folder.dir;
}
