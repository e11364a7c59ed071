import { httpGet } from '../http.js';
import { describeExit, type GroupProcess } from './process-group.js';

export interface WaitReadyOptions {
  readonly timeoutMs?: number;
  /** Processes whose exit means the stack will never be ready. */
  readonly processes?: readonly GroupProcess[];
  /** The status that means ready; any 2xx when absent. */
  readonly status?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Ready means a real request got the expected answer (a 2xx by default); never a fixed sleep.
export async function waitForHttp(url: string, options: WaitReadyOptions = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  let last = 'no attempt yet';
  for (;;) {
    for (const proc of options.processes ?? []) {
      if (proc.hasExited()) throw new Error(describeExit(proc, await proc.exited));
    }
    try {
      const answer = await httpGet(url, 2000);
      if (options.status !== undefined ? answer.status === options.status : answer.status >= 200 && answer.status < 300) return;
      last = `HTTP ${answer.status}: ${answer.body.toString('utf8').slice(0, 200)}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() >= deadline) {
      const tails = (options.processes ?? []).map((p) => `${p.name}: ${p.outputTail().trim().split('\n').slice(-4).join(' | ')}`);
      throw new Error(
        `${url} not ready after ${options.timeoutMs ?? 20_000} ms (last: ${last})${tails.length ? `; ${tails.join('; ')}` : ''}`,
      );
    }
    await sleep(50);
  }
}
