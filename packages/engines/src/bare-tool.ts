import { errors, type LoadEngine } from '@bench/core';
import { runExternal } from './external-process.js';

/** The number a tool printed where `pattern`'s first group stands; undefined when it printed no such line. */
export const numberAfter = (text: string, pattern: RegExp): number | undefined => {
  const match = pattern.exec(text);
  return match ? Number(match[1]) : undefined;
};

/** What a load tool reported about itself, run bare (no bench around it). */
export interface BareResult {
  readonly rps: number;
  readonly requests: number;
  /** The tool's CPU over its whole life (start-up, connects, run and exit), seconds, as the kernel counted it. */
  readonly cpuSeconds: number;
  /** Its resident memory at the end, bytes. */
  readonly rssBytes?: number;
}

/** Runs an engine's bare tool against a running server, pinned to `cpus`, as `bench selfbench` compares it with bench. */
export async function runBareTool(
  engine: LoadEngine,
  url: string,
  connections: number,
  seconds: number,
  cpus?: string,
  threads = 1,
): Promise<BareResult> {
  const tool = engine.bareTool;
  if (!tool)
    throw errors.engineUnsupported(engine.name, 'it has no bare tool to compare with (bench selfbench measures it at its rate instead)');
  const { command, args } = tool.command(url, connections, seconds, threads);
  // bash's `times`, after the tool exits, prints the CPU the kernel counted for it (getrusage of a waited-for child):
  // exact, its exit included, where sampling /proc loses the last interval before the process is gone
  const run = await runExternal(
    'bash',
    ['-c', `"$@"; code=$?; echo; echo ${CPU_MARK}; times; exit $code`, 'bench-bare', command, ...args],
    {
      name: `${engine.name}-bare`,
      ...(cpus ? { cpus } : {}),
    },
  );
  const { output, cpuSeconds } = splitChildCpu(run.stdout);
  const parsed = tool.parse(output);
  if (!parsed) throw errors.generatorFailed(`${engine.name} printed no result: ${run.outputTail}`);
  return {
    ...parsed,
    cpuSeconds: cpuSeconds ?? ((run.client?.cpuPercent ?? 0) / 100) * seconds,
    ...(run.client ? { rssBytes: run.client.rssBytes } : {}),
  };
}

const CPU_MARK = 'bench-bare-cpu';
const minutesSeconds = (text: string) => {
  const match = /^(\d+)m([\d.]+)s$/.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
};

/** The tool's own output, and its CPU (user + system seconds) from the `times` lines after the mark, when they are there. */
export function splitChildCpu(stdout: string): { output: string; cpuSeconds?: number } {
  const at = stdout.lastIndexOf(`\n${CPU_MARK}\n`);
  if (at < 0) return { output: stdout };
  // `times` prints the shell's own user and system time, then its children's
  const children = stdout.slice(at).trim().split('\n').at(-1)!.trim().split(/\s+/).map(minutesSeconds);
  const [user, system] = children;
  return {
    output: stdout.slice(0, at),
    ...(children.length === 2 && user !== undefined && system !== undefined ? { cpuSeconds: user + system } : {}),
  };
}
