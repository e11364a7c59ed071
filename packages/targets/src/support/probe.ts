import os from 'node:os';
import path from 'node:path';
import { notInstalled, type Availability, type Scenario } from '@bench/core';
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
  if (missing.length > 0)
    return notInstalled(
      missing.map((r) => r.binary),
      missing.map((r) => r.aptPackage),
    );
  return { ok: true, versions: versions() };
}

/** The folder a web server serves a scenario from: the static file's folder, or the scenario folder (its script). */
export function documentRoot(scenario: Scenario): string {
  const folder = folderOf(scenario);
  return folder.kind === 'static' && folder.staticFile ? path.dirname(path.join(folder.dir, folder.staticFile)) : folder.dir;
}
