import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { addStack, type FoldedStacks } from './folded-stacks.js';
import { scriptFrameName } from './frame-names.js';
import { functionSpans, innermostFunction, type FunctionSpan } from './function-spans.js';
import { startingWithTheWindow, type ProcessProfiler, type ProfilerContext, type RunningProfiler } from './process-profiler.js';

// a file URL: NODE_OPTIONS splits on spaces, and a URL spells a space in the checkout's path as %20
const PRELOAD = new URL('./v8-preload.js', import.meta.url).href;
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

interface V8ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
  /** Self samples by source line (1-based): lines of an inlined function are that function's. */
  positionTicks?: { line: number; ticks: number }[];
}

/** A script of the profiled app: its lines, its functions, and which calls which (once asked). */
interface Script {
  readonly lines: string[];
  readonly spans: FunctionSpan[];
  /** Whether a function calls another (by their spans), once asked. */
  readonly calls: Map<string, boolean>;
}

/**
 * Node 20's V8 charges a function its optimising compiler inlined to the function it was inlined into, but keeps
 * the inlined code's own source lines: the lines of a sample, looked up in the script's functions (parsed with
 * acorn), give the inlined function back as a frame under its caller.
 */
class InlinedFunctions {
  private readonly scripts = new Map<string, Script>();
  private readonly v8Names = new Map<string, string>();

  constructor(
    nodes: readonly V8ProfileNode[],
    private readonly folder?: string,
  ) {
    // V8's own name for a function where it has one (it names methods and assigned functions its own way)
    for (const { callFrame: f } of nodes) if (f.functionName) this.v8Names.set(`${f.url}:${f.lineNumber}`, f.functionName);
  }

  private script(url: string): Script {
    let script = this.scripts.get(url);
    if (!script) {
      try {
        const source = url.startsWith('file://') ? readFileSync(fileURLToPath(url), 'utf8') : '';
        script = { lines: source.split('\n'), spans: functionSpans(source), calls: new Map() };
      } catch {
        script = { lines: [], spans: [], calls: new Map() };
      }
      this.scripts.set(url, script);
    }
    return script;
  }

  // V8 gives an inlined function's lines in its own script, which may be another file: a line is taken for a
  // function of the caller's file only when the caller (or a function it calls) calls that function by name
  private calls(script: Script, caller: FunctionSpan, callee: FunctionSpan, depth = 2): boolean {
    const key = `${caller.startLine}:${caller.endLine}>${callee.startLine}:${callee.endLine}/${depth}`;
    let answer = script.calls.get(key);
    if (answer === undefined) {
      const body = script.lines.slice(caller.startLine, caller.endLine + 1).join('\n');
      const callsName = (name: string) =>
        name !== '(anonymous)' && new RegExp(`(^|[^\\w$])${name.replace(/[$]/g, '\\$')}\\s*\\(`).test(body);
      answer =
        callsName(callee.name) ||
        (depth > 1 &&
          script.spans.some((middle) => middle !== caller && callsName(middle.name) && this.calls(script, middle, callee, depth - 1)));
      script.calls.set(key, answer);
    }
    return answer;
  }

  /** The self samples of a node split by the function their lines belong to: [inlined frame or undefined, samples]. */
  split(node: V8ProfileNode, samples: number): [string | undefined, number][] {
    const ticks = node.positionTicks ?? [];
    const counted = ticks.reduce((sum, t) => sum + t.ticks, 0);
    const { url, lineNumber } = node.callFrame;
    if (counted === 0 || !url) return [[undefined, samples]];
    const script = this.script(url);
    const own = script.spans.find((span) => span.startLine === lineNumber);
    const byFrame = new Map<string | undefined, number>();
    for (const { line, ticks: n } of ticks) {
      const span = innermostFunction(script.spans, line - 1);
      const inlined = own && span && span.startLine !== lineNumber && this.calls(script, own, span) ? span : undefined;
      const name =
        inlined &&
        scriptFrameName(this.v8Names.get(`${url}:${inlined.startLine}`) ?? inlined.name, url, inlined.startLine, {
          ...(this.folder ? { folder: this.folder } : {}),
        });
      byFrame.set(name, (byFrame.get(name) ?? 0) + n);
    }
    // positionTicks and the samples may disagree by a few: shares of the samples, rounded
    const out: [string | undefined, number][] = [];
    let given = 0;
    for (const [name, n] of byFrame) {
      const share = Math.round((n / counted) * samples);
      out.push([name, share]);
      given += share;
    }
    if (given !== samples) out.push([undefined, samples - given]);
    return out.filter(([, n]) => n > 0);
  }
}

/** How a profile's frames are named: `folder`, the target's, that its files are named from. */
export interface FoldOptions {
  readonly folder?: string;
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
    frames.reverse();
    for (const [frame, n] of inlined.split(leaf, samples)) addStack(stacks, frame ? [...frames, frame] : frames, n);
  }
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
        const profile = JSON.parse(text) as { nodes?: V8ProfileNode[]; samples?: number[]; error?: string };
        if (profile.nodes)
          foldV8Profile({ nodes: profile.nodes, ...(profile.samples ? { samples: profile.samples } : {}) }, stacks, {
            ...(real ? { folder: real } : {}),
          });
        else notes.push(`Node process ${pid}: V8's profiler failed: ${profile.error ?? 'no profile'}`);
      }
      return { stacks, notes };
    },
  };
}
