import { makePrivateDir, removeDir } from '../process/temp-dir.js';
import { prepareStackProfile, type PreparedStackProfile } from '../profile/profile-stack.js';
import { v8ProfilingEnvironment } from '../profile/v8-profiler.js';
import { type RunningTarget } from '../target.js';

/** A run's --profile: one private directory for every cell's profile files, and what the stacks need to be profiled. */
export interface RunProfiling {
  readonly dir: string;
  readonly hz: number;
  /** Environment every stack starts with, so its Node processes can be profiled. */
  readonly env: Readonly<Record<string, string>>;
  close(): void;
}

export function runProfiling(options: { profile?: boolean; profileHz: number }): RunProfiling | undefined {
  if (!options.profile) return undefined;
  const dir = makePrivateDir('profile');
  return { dir, hz: options.profileHz, env: v8ProfilingEnvironment(dir, options.profileHz), close: () => removeDir(dir) };
}

/** Readies the profilers of a running stack before a cell's warm-up (undefined without --profile). */
export async function prepareCellProfile(
  profiling: RunProfiling | undefined,
  running: Pick<RunningTarget, 'processGroups' | 'folder'>,
): Promise<PreparedStackProfile | undefined> {
  if (!profiling) return undefined;
  return prepareStackProfile(running.processGroups, {
    dir: profiling.dir,
    hz: profiling.hz,
    ...(running.folder ? { folder: running.folder } : {}),
  });
}
