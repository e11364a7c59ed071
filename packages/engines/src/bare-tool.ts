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
  /** The tool's CPU, seconds, sampled by its pid. */
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
  const run = await runExternal(command, args, { name: `${engine.name}-bare`, ...(cpus ? { cpus } : {}) });
  const parsed = tool.parse(run.stdout);
  if (!parsed) throw errors.generatorFailed(`${engine.name} printed no result: ${run.outputTail}`);
  const cpuSeconds = ((run.client?.cpuPercent ?? 0) / 100) * seconds;
  return { ...parsed, cpuSeconds, ...(run.client ? { rssBytes: run.client.rssBytes } : {}) };
}
