import { spawn } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { findBinary } from '../probe/find-binary.js';

/** The functions whose unwind rules are read to judge a binary: enough for the share, a fraction of a big one's. */
const FUNCTIONS_READ = 2000;

/**
 * Of a binary's functions (the FDEs of `readelf --debug-dump=frames-interp`), the share whose unwind rules find the
 * call frame from the frame pointer (a CFA of rbp on x86-64, x29 on arm64): most of them in a binary built with frame
 * pointers (Node's: 66%), a few in one built without (Debian's php8.2: 75 of 9,559; nginx, apache2, perl: none).
 */
export function framePointerShare(lines: Iterable<string>): { functions: number; share: number } {
  let functions = 0;
  let withFramePointer = 0;
  let counted = false;
  for (const line of lines) {
    if (/ FDE /.test(line)) {
      functions++;
      counted = false;
      continue;
    }
    // a CIE's rows (the rules its functions start from) are no function's own
    if (/ CIE /.test(line)) counted = true;
    // a row of the current function's table: LOC, then the CFA rule ("rsp+8", "rbp+16")
    const cfa = /^[0-9a-f]{8,16}\s+(\S+)/.exec(line)?.[1];
    if (!counted && cfa && /^(rbp|x29)\+/.test(cfa)) {
      withFramePointer++;
      counted = true;
    }
  }
  return { functions, share: functions > 0 ? withFramePointer / functions : 0 };
}

const judged = new Map<string, Promise<boolean | undefined>>();

/** Whether an executable was built with frame pointers (most of its functions unwind from them); undefined where readelf cannot say. */
export function keepsFramePointers(binary: string): Promise<boolean | undefined> {
  let answer = judged.get(binary);
  if (!answer) {
    answer = readFunctions(binary);
    judged.set(binary, answer);
  }
  return answer;
}

function readFunctions(binary: string): Promise<boolean | undefined> {
  const readelf = findBinary('readelf');
  if (!readelf) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const child = spawn(readelf, ['--debug-dump=frames-interp', binary], { stdio: ['ignore', 'pipe', 'ignore'] });
    const lines: string[] = [];
    let functions = 0;
    const reader = createInterface({ input: child.stdout });
    reader.on('line', (line) => {
      lines.push(line);
      if (/ FDE /.test(line) && ++functions > FUNCTIONS_READ) {
        reader.close();
        child.kill();
      }
    });
    child.on('error', () => resolve(undefined));
    child.on('close', () => {
      const { functions: read, share } = framePointerShare(lines);
      resolve(read === 0 ? undefined : share > 0.5);
    });
  });
}

/**
 * How perf unwinds these processes' stacks: by frame pointer (`-g`, cheap) when every executable keeps them, else
 * from DWARF unwind data (`--call-graph dwarf`: perf copies 8 KB of stack per sample and unwinds it when read);
 * with a note saying which and why, as the profile's readers need to know a stack may lose its root.
 */
export async function perfCallGraph(pids: readonly number[]): Promise<{ args: string[]; note?: string }> {
  const executables = new Set<string>();
  for (const pid of pids) {
    try {
      executables.add(readlinkSync(`/proc/${pid}/exe`));
    } catch {
      // gone already: perf will say so
    }
  }
  const answers = await Promise.all([...executables].map(async (exe) => [exe, await keepsFramePointers(exe)] as const));
  const without = answers.filter(([, keeps]) => keeps === false).map(([exe]) => path.basename(exe));
  const unknown = answers.filter(([, keeps]) => keeps === undefined).map(([exe]) => path.basename(exe));
  if (answers.length > 0 && without.length === 0 && unknown.length === 0) return { args: ['-g'] };
  const why =
    without.length > 0
      ? `${without.join(', ')} ${without.length === 1 ? 'was' : 'were'} built without frame pointers`
      : `readelf (binutils) could not tell whether ${unknown.join(', ') || 'the processes'} keep frame pointers`;
  return {
    args: ['--call-graph', 'dwarf'],
    note: `perf unwound the stacks from DWARF (--call-graph dwarf) as ${why}: a stack deeper than the 8 KB perf copies of it per sample loses its outermost frames`,
  };
}
