import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { addStack, type FoldedStacks } from './folded-stacks.js';
import type { ProcessProfiler } from './process-profiler.js';

// a file URL: NODE_OPTIONS splits on spaces, and a URL spells a space in the checkout's path as %20
const PRELOAD = new URL('./v8-preload.js', import.meta.url).href;

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

interface V8ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

// "parseItems server.mjs:12": the function and where it is, short enough to read in a flame graph
function frameName(frame: V8ProfileNode['callFrame']): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  const file = frame.url.replace(/^file:\/\//, '');
  const inModules = file.lastIndexOf('/node_modules/');
  const where = inModules >= 0 ? file.slice(inModules + '/node_modules/'.length) : path.basename(file);
  return `${name} ${where}:${frame.lineNumber + 1}`;
}

/** A V8 .cpuprofile as folded stacks; (idle) samples are dropped: they are not CPU. */
export function foldV8Profile(profile: { nodes: V8ProfileNode[]; samples?: number[] }, stacks: FoldedStacks): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const counts = new Map<number, number>();
  for (const id of profile.samples ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
  for (const [id, samples] of counts) {
    const leaf = byId.get(id);
    if (!leaf || leaf.callFrame.functionName === '(idle)') continue;
    const frames: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (node && node.callFrame.functionName !== '(root)') frames.push(frameName(node.callFrame));
    }
    addStack(stacks, frames.reverse(), samples);
  }
}

/** V8's own sampling profiler, in every Node process that took the hook. */
export const v8Profiler: ProcessProfiler = {
  name: 'v8',
  async start(pids, { dir }) {
    // a stack measured at several concurrencies is profiled once per cell: last cell's files go first
    for (const pid of pids) for (const end of ['started', 'cpuprofile']) rmSync(path.join(dir, `${pid}.${end}`), { force: true });
    for (const pid of pids) process.kill(pid, 'SIGUSR2');
    await Promise.all(pids.map((pid) => waitForFile(path.join(dir, `${pid}.started`), 3000)));
    return {
      async stop() {
        const stacks: FoldedStacks = new Map();
        const notes: string[] = [];
        const signalled = pids.filter((pid) => {
          try {
            process.kill(pid, 'SIGUSR2');
            return true;
          } catch {
            notes.push(`Node process ${pid} ended before its profile was taken`);
            return false;
          }
        });
        for (const pid of signalled) {
          const file = path.join(dir, `${pid}.cpuprofile`);
          if (!(await waitForFile(file, 10_000))) {
            notes.push(`Node process ${pid} wrote no profile within 10 s`);
            continue;
          }
          const text = readFileSync(file, 'utf8');
          rmSync(file);
          const profile = JSON.parse(text) as { nodes?: V8ProfileNode[]; samples?: number[]; error?: string };
          if (profile.nodes) foldV8Profile({ nodes: profile.nodes, ...(profile.samples ? { samples: profile.samples } : {}) }, stacks);
          else notes.push(`Node process ${pid}: V8's profiler failed: ${profile.error ?? 'no profile'}`);
        }
        return { stacks, notes };
      },
    };
  },
};
