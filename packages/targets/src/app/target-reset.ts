import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { errors, makePrivateDir, removeDir, type TargetReset } from '@bench/core';

/** A target's reset as a config names it: a command to run, or files to restore; with the target stopped (default) or running. */
export interface ResetSpec {
  readonly command?: string;
  readonly files?: readonly string[];
  readonly while?: 'stopped' | 'running';
}

/**
 * The reset of an app target: `files` are copied (from `cwd`) into a private folder when the run starts and copied
 * back before every cell (a file that did not exist then is removed); `command` runs through the shell in `cwd`.
 */
export function targetReset(target: string, spec: ResetSpec, cwd: string): TargetReset {
  const whileTarget = spec.while ?? 'stopped';
  if (spec.command !== undefined) {
    const command = spec.command;
    return {
      description: `\`${command}\` run (target ${whileTarget})`,
      whileTarget,
      prepare: async () => {},
      async reset() {
        const run = spawnSync('sh', ['-c', command], { cwd, encoding: 'utf8', timeout: 120_000 });
        if (run.status !== 0)
          throw errors.targetReset(
            target,
            `\`${command}\` exited with ${run.status ?? run.signal}: ${(run.stderr || run.stdout).trim().split('\n').at(-1) ?? ''}`,
          );
      },
      dispose: async () => {},
    };
  }
  const files = (spec.files ?? []).map((file) => path.resolve(cwd, file));
  let copy: string | undefined;
  const kept = new Map<string, string | undefined>();
  return {
    description: `${files.map((file) => path.relative(cwd, file)).join(', ')} restored (target ${whileTarget})`,
    whileTarget,
    async prepare() {
      copy = makePrivateDir('reset');
      files.forEach((file, i) => {
        const saved = path.join(copy!, `${i}-${path.basename(file)}`);
        if (existsSync(file)) {
          copyFileSync(file, saved);
          kept.set(file, saved);
        } else kept.set(file, undefined);
      });
    },
    async reset() {
      for (const [file, saved] of kept) {
        if (saved) copyFileSync(saved, file);
        else rmSync(file, { force: true });
      }
    },
    async dispose() {
      if (copy) removeDir(copy);
      copy = undefined;
    },
  };
}
