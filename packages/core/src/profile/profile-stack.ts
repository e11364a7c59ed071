import { messageOf } from '../errors.js';
import { mkdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { listGroupMembers } from '../process/proc-table.js';
import {
  boundStacks,
  encodeFoldedStacks,
  MAX_DISTINCT_STACKS,
  mergeFoldedStacks,
  totalSamples,
  type FoldedStacks,
} from './folded-stacks.js';
import { jfrProfiler } from './jfr-profiler.js';
import { perfProfiler } from './perf-profiler.js';
import type { PreparedProfiler, ProcessProfiler, ProfilerContext, RunningProfiler } from './process-profiler.js';
import type { CellProfile } from './profile-schema.js';
import { tookV8Hook, v8Profiler } from './v8-profiler.js';

/** Samples a second when none is asked: perf's habit, off the beat of timers that tick 100 times a second. */
export const DEFAULT_PROFILE_HZ = 99;

const executable = (pid: number): string => {
  try {
    return path.basename(readlinkSync(`/proc/${pid}/exe`));
  } catch {
    return '';
  }
};

/** Which profiler samples each process: V8's where the hook loaded, the Flight Recorder in a JVM, perf elsewhere. */
export function chooseProfilers(pids: readonly number[], dir: string): Map<ProcessProfiler, number[]> {
  const chosen = new Map<ProcessProfiler, number[]>();
  for (const pid of pids) {
    const profiler = tookV8Hook(dir, pid) ? v8Profiler : executable(pid) === 'java' ? jfrProfiler : perfProfiler;
    chosen.set(profiler, [...(chosen.get(profiler) ?? []), pid]);
  }
  return chosen;
}

/** A profile being taken of a whole stack; stop() returns it as a cell keeps it. */
export interface StackProfiling {
  stop(): Promise<CellProfile>;
}

/** A stack's profilers made ready before the warm-up: start() opens the measured window, cancel() gives up. */
export interface PreparedStackProfile {
  start(): Promise<StackProfiling>;
  cancel(): Promise<void>;
}

/** Readies the profiler of every process of these groups (each its runtime's), before the cell's warm-up. */
export async function prepareStackProfile(processGroups: readonly number[], options: ProfilerContext): Promise<PreparedStackProfile> {
  mkdirSync(options.dir, { recursive: true });
  const pids = processGroups.flatMap((group) => listGroupMembers(group).map((entry) => entry.pid));
  const prepared: [ProcessProfiler, number, PreparedProfiler][] = [];
  for (const [profiler, members] of chooseProfilers(pids, options.dir))
    prepared.push([profiler, members.length, await profiler.prepare(members, options)]);
  return {
    cancel: async () => {
      for (const [, , one] of prepared) await one.cancel();
    },
    async start() {
      const running: RunningProfiler[] = [];
      for (const [, , one] of prepared) running.push(await one.start());
      return {
        async stop() {
          // a profiler that fails costs its own samples, never the cell's numbers
          const taken = await Promise.all(
            running.map((run, i) =>
              run.stop().catch((error: unknown) => ({
                stacks: new Map() as FoldedStacks,
                notes: [`${prepared[i]?.[0].name ?? 'a'} profiler failed: ${messageOf(error)}`],
              })),
            ),
          );
          const { stacks, droppedSamples } = boundStacks(mergeFoldedStacks(taken.map((one) => one.stacks)));
          const notes = taken.flatMap((one) => one.notes);
          if (pids.length === 0) notes.push('bench started no server process here (a --url run): there was nothing to profile');
          if (droppedSamples > 0)
            notes.push(
              `${droppedSamples} samples in the rarest stacks were dropped (a cell keeps its ${MAX_DISTINCT_STACKS.toLocaleString('en-US')} most sampled stacks)`,
            );
          return {
            profilers: prepared.map(([profiler, count]) => `${profiler.name} (${count} process${count === 1 ? '' : 'es'})`),
            hz: options.hz,
            samples: totalSamples(stacks),
            processes: pids.length,
            encoding: 'folded-deflate-base64',
            stacks: encodeFoldedStacks(stacks),
            notes,
          };
        },
      };
    },
  };
}
