import { describeExit, type GroupProcess } from '@bench/core';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once the process has printed a line matching `pattern`; rejects if it exits first or time runs out. */
export async function waitForOutput(proc: GroupProcess, pattern: RegExp, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (pattern.test(proc.outputTail())) return;
    if (proc.hasExited()) throw new Error(describeExit(proc, await proc.exited));
    if (Date.now() >= deadline) {
      throw new Error(`${proc.name} did not print ${pattern} within ${timeoutMs} ms; last output: ${proc.outputTail().trim().slice(-400)}`);
    }
    await sleep(25);
  }
}
