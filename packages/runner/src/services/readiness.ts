import { describeExit, type GroupProcess } from '@bench/core';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retries `attempt` until it succeeds (a real query, never a fixed sleep), the process dies, or time runs out. */
export async function waitUntilServing<T>(proc: GroupProcess, attempt: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    if (proc.hasExited()) throw new Error(describeExit(proc, await proc.exited));
    try {
      return await attempt();
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const why = last instanceof Error ? last.message : String(last);
      throw new Error(
        `not ready after ${timeoutMs} ms (${why}); last output: ${proc.outputTail().trim().split('\n').slice(-4).join(' | ')}`,
      );
    }
    await sleep(50);
  }
}
