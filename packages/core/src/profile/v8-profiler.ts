import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { packageFile } from '../package-file.js';
import { addStack, type FoldedStacks } from './folded-stacks.js';
import { scriptFrameName, scriptWhere } from './frame-names.js';
import { InlinedFunctions, type V8ProfileNode } from './inlined-functions.js';
import { startingWithTheWindow, type ProcessProfiler, type ProfilerContext, type RunningProfiler } from './process-profiler.js';

// a file URL: NODE_OPTIONS splits on spaces, and a URL spells a space in the checkout's path as %20
const PRELOAD = pathToFileURL(packageFile(import.meta.url, 'dist', 'profile', 'v8-preload.js')).href;
const BENCH_HOOK_FRAME = "(bench's profiler hook)";

/** The environment that lets V8's profiler be switched on in a Node process of the stack (every target passes it on). */
export function v8ProfilingEnvironment(dir: string, hz: number): Record<string, string> {
  return { NODE_OPTIONS: `--import=${PRELOAD}`, BENCH_PROFILE_DIR: dir, BENCH_PROFILE_HZ: String(hz) };
}

/** Whether this process loaded the hook (it wrote its ready file). */
export const tookV8Hook = (dir: string, pid: number): boolean => existsSync(path.join(dir, `${pid}.ready`));

async function waitForFile(file: string, timeoutMs: number): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await sleep(20)) if (existsSync(file)) return true;
  return existsSync(file);
}

/** How a profile's frames are named: `folder`, the target's, that its files are named from; `root`, a frame above every stack. */
export interface FoldOptions {
  readonly folder?: string;
  readonly root?: string;
}

/** A V8 .cpuprofile as folded stacks; (idle) samples are dropped: they are not CPU. */
export function foldV8Profile(
  profile: { nodes: V8ProfileNode[]; samples?: number[] },
  stacks: FoldedStacks,
  options: FoldOptions = {},
): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const counts = new Map<number, number>();
  for (const id of profile.samples ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
  const inlined = new InlinedFunctions(profile.nodes, options.folder);
  const naming = options.folder ? { folder: options.folder } : {};
  for (const [id, samples] of counts) {
    const leaf = byId.get(id);
    if (!leaf || leaf.callFrame.functionName === '(idle)') continue;
    const frames: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      const f = node?.callFrame;
      if (!f || f.functionName === '(root)') continue;
      // bench's own hook (stopping the profiler, mostly) is named as such, not by where the checkout happens to be
      frames.push(f.url === PRELOAD ? BENCH_HOOK_FRAME : scriptFrameName(f.functionName || '(anonymous)', f.url, f.lineNumber, naming));
    }
    if (options.root) frames.push(options.root);
    frames.reverse();
    for (const [inferred, n] of inlined.split(leaf, samples)) addStack(stacks, [...frames, ...inferred], n);
  }
}

/** What the hook writes: the main thread's profile and each worker thread's, or why there is none. */
interface HookProfile {
  profile?: { nodes?: V8ProfileNode[]; samples?: number[] };
  workers?: { url: string; profile?: { nodes?: V8ProfileNode[]; samples?: number[] }; error?: string }[];
  error?: string;
}

/** A process's profiles (its main thread's, then each worker thread's under a frame naming it) as folded stacks. */
export function foldHookProfile(pid: number, written: HookProfile, stacks: FoldedStacks, folder?: string): string[] {
  const notes: string[] = [];
  const fold = (profile: HookProfile['profile'], root?: string) => {
    if (profile?.nodes)
      foldV8Profile({ nodes: profile.nodes, ...(profile.samples ? { samples: profile.samples } : {}) }, stacks, {
        ...(folder ? { folder } : {}),
        ...(root ? { root } : {}),
      });
  };
  if (!written.profile) notes.push(`Node process ${pid}: V8's profiler failed: ${written.error ?? 'no profile'}`);
  fold(written.profile);
  // a worker that ended inside the window took its profile with it: said once per script and reason
  const lost = new Map<string, number>();
  for (const worker of written.workers ?? []) {
    const where = scriptWhere(worker.url, folder);
    if (worker.profile) fold(worker.profile, `(worker thread ${where})`);
    else {
      const why = `${where} (${worker.error ?? 'no profile'})`;
      lost.set(why, (lost.get(why) ?? 0) + 1);
    }
  }
  for (const [why, count] of lost)
    notes.push(`Node process ${pid}: ${count} worker thread${count === 1 ? '' : 's'} of ${why} gave no profile: their samples are missing`);
  return notes;
}

/** V8's own sampling profiler, in every Node process that took the hook. */
export const v8Profiler: ProcessProfiler = {
  name: 'v8',
  prepare: (pids, context) => startingWithTheWindow(() => startV8(pids, context)),
};

function realFolder(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}

/** SIGUSR2 to a process that took the hook; false when it is gone. */
function signal(pid: number): boolean {
  try {
    process.kill(pid, 'SIGUSR2');
    return true;
  } catch {
    return false;
  }
}

async function startV8(pids: readonly number[], { dir, folder }: ProfilerContext): Promise<RunningProfiler> {
  // the app's files are named relative to its folder as V8 sees them (a folder reached through a link resolved)
  const real = folder && realFolder(folder);
  // a stack measured at several concurrencies is profiled once per cell: last cell's files go first
  for (const pid of pids) for (const end of ['started', 'cpuprofile']) rmSync(path.join(dir, `${pid}.${end}`), { force: true });
  const started = pids.filter((pid) => signal(pid));
  await Promise.all(started.map((pid) => waitForFile(path.join(dir, `${pid}.started`), 3000)));
  return {
    async stop() {
      const stacks: FoldedStacks = new Map();
      const notes: string[] = [];
      const signalled = started.filter((pid) => {
        if (signal(pid)) return true;
        notes.push(`Node process ${pid} ended before its profile was taken`);
        return false;
      });
      for (const pid of signalled) {
        const file = path.join(dir, `${pid}.cpuprofile`);
        if (!(await waitForFile(file, 10_000))) {
          notes.push(`Node process ${pid} wrote no profile within 10 s`);
          continue;
        }
        const text = readFileSync(file, 'utf8');
        rmSync(file);
        notes.push(...foldHookProfile(pid, JSON.parse(text) as HookProfile, stacks, real));
      }
      return { stacks, notes };
    },
  };
}
