import { execFile } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { spawnGroup } from '../process/process-group.js';
import { settledWithin } from '../process/settled-within.js';
import { findBinary } from '../probe/find-binary.js';
import { addStack, type FoldedStacks } from './folded-stacks.js';
import { perfCallGraph } from './frame-pointers.js';
import { startingWithTheWindow, type ProcessProfiler, type ProfilerContext, type RunningProfiler } from './process-profiler.js';

const run = promisify(execFile);

// "\t    7f3a2b1c parse_request+0x2c (/usr/sbin/nginx)": the function without its offset, else the file it is in
function frameName(line: string): string | undefined {
  const match = /^\s*[0-9a-f]+\s+(.*?)\s+\(([^)]*)\)\s*$/.exec(line);
  if (!match) return undefined;
  const symbol = (match[1] ?? '').replace(/\+0x[0-9a-f]+$/, '');
  return symbol && symbol !== '[unknown]' ? symbol : `[${path.basename(match[2] ?? '?')}]`;
}

/** `perf script` output as folded stacks, each under its process's name (stackcollapse-perf's layout). */
export function foldPerfScript(text: string, stacks: FoldedStacks): void {
  let comm: string | undefined;
  let frames: string[] = [];
  const flush = () => {
    if (comm !== undefined) addStack(stacks, [comm, ...frames.reverse()]);
    comm = undefined;
    frames = [];
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') flush();
    else if (!/^\s/.test(line)) {
      flush();
      comm = line.trim().split(/\s+/)[0] ?? '?';
    } else {
      const frame = frameName(line);
      if (frame) frames.push(frame);
    }
  }
  flush();
}

/** Linux perf, sampling on-CPU call stacks of the given processes; how it unwinds them is chosen before the warm-up. */
export const perfProfiler: ProcessProfiler = {
  name: 'perf',
  async prepare(pids, context) {
    const callGraph = await perfCallGraph(pids);
    return startingWithTheWindow(() => startPerf(pids, context, callGraph));
  },
};

async function startPerf(
  pids: readonly number[],
  { dir, hz }: ProfilerContext,
  callGraph: { args: string[]; note?: string },
): Promise<RunningProfiler> {
  const perf = findBinary('perf');
  if (!perf) return noProfile(`perf is not installed (apt-get install linux-perf): ${pids.length} process(es) not profiled`);
  const file = path.join(dir, 'perf.data');
  const recorder = spawnGroup(perf, ['record', '-F', String(hz), ...callGraph.args, '-p', pids.join(','), '-o', file], {
    name: 'perf record',
  });
  // perf attaches in well under this; a kernel that forbids it makes perf exit at once, with the reason
  await sleep(300);
  if (recorder.hasExited()) {
    const reason =
      recorder
        .outputTail()
        .trim()
        .split('\n')
        .find((line) => /error|permission|not/i.test(line)) ?? 'perf record exited';
    return noProfile(`perf could not sample ${pids.length} process(es): ${reason.trim()}`);
  }
  return {
    async stop() {
      if (!recorder.hasExited()) process.kill(recorder.pid, 'SIGINT');
      await settledWithin(recorder.exited, 10_000);
      await recorder.stop();
      const stacks: FoldedStacks = new Map();
      try {
        const { stdout } = await run(perf, ['script', '-i', file, '-F', 'comm,pid,ip,sym,dso'], { maxBuffer: 1024 * 1024 * 1024 });
        foldPerfScript(stdout, stacks);
        return { stacks, notes: callGraph.note ? [callGraph.note] : [] };
      } catch (error) {
        return {
          stacks,
          notes: [`perf script could not read the recording: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`],
        };
      }
    },
  };
}

function noProfile(note: string): RunningProfiler {
  return { stop: () => Promise.resolve({ stacks: new Map() as FoldedStacks, notes: [note] }) };
}
