import { messageOf } from '../errors.js';
import { protocolRequest, type Transport } from '../tls/protocol-request.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { errors } from '../errors.js';
import { describeExit, type GroupProcess } from './process-group.js';

interface PollOptions {
  readonly timeoutMs: number;
  readonly intervalMs?: number;
  /** Processes whose exit means readiness will never come. */
  readonly processes?: readonly GroupProcess[];
  /** The error when time runs out, from the last failed attempt's words. */
  readonly timedOut: (last: string) => Error;
}

// The one readiness loop: try, and until an attempt succeeds, check the processes are alive, then wait a little.
async function pollUntil<T>(
  attempt: () => Promise<{ done: true; value: T } | { done: false; why: string }>,
  options: PollOptions,
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let last = 'no attempt yet';
  for (;;) {
    const result = await attempt();
    if (result.done) return result.value;
    last = result.why;
    for (const proc of options.processes ?? []) {
      if (proc.hasExited()) throw errors.processFailed(describeExit(proc, await proc.exited));
    }
    if (Date.now() >= deadline) throw options.timedOut(last);
    await sleep(options.intervalMs ?? 50);
  }
}

const lastLines = (proc: GroupProcess, lines = 4) => proc.outputTail().trim().split('\n').slice(-lines).join(' | ');

export interface WaitReadyOptions {
  readonly timeoutMs?: number;
  /** Processes whose exit means the stack will never be ready. */
  readonly processes?: readonly GroupProcess[];
  /** The status that means ready; any 2xx when absent. */
  readonly status?: number;
  /** Over another protocol than HTTP/1.1 (a TLS server checked against the run's CA). */
  readonly transport?: Transport;
}

// Ready means a real request got the expected answer (a 2xx by default); never a fixed sleep.
export async function waitForHttp(url: string, options: WaitReadyOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  await pollUntil(
    async () => {
      try {
        const answer = await protocolRequest(url, {}, options.transport, 2000);
        if (options.status !== undefined ? answer.status === options.status : answer.status >= 200 && answer.status < 300)
          return { done: true, value: undefined };
        return { done: false, why: `HTTP ${answer.status}: ${answer.body.toString('utf8').slice(0, 200)}` };
      } catch (error) {
        return { done: false, why: messageOf(error) };
      }
    },
    {
      timeoutMs,
      ...(options.processes ? { processes: options.processes } : {}),
      timedOut: (last) => {
        const tails = (options.processes ?? []).map((p) => `${p.name}: ${lastLines(p)}`);
        return errors.processFailed(`${url} not ready after ${timeoutMs} ms (last: ${last})${tails.length ? `; ${tails.join('; ')}` : ''}`);
      },
    },
  );
}

/** Retries `attempt` until it succeeds (a real query, never a fixed sleep), the process dies, or time runs out. */
export function waitUntilServing<T>(proc: GroupProcess, attempt: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  return pollUntil(
    async () => {
      try {
        return { done: true, value: await attempt() };
      } catch (error) {
        return { done: false, why: messageOf(error) };
      }
    },
    {
      timeoutMs,
      processes: [proc],
      timedOut: (last) => errors.processFailed(`not ready after ${timeoutMs} ms (${last}); last output: ${lastLines(proc)}`),
    },
  );
}

/** Resolves once the process has printed a line matching `pattern`; rejects if it exits first or time runs out. */
export function waitForOutput(proc: GroupProcess, pattern: RegExp, timeoutMs: number): Promise<void> {
  return pollUntil(() => Promise.resolve(pattern.test(proc.outputTail()) ? { done: true, value: undefined } : { done: false, why: '' }), {
    timeoutMs,
    intervalMs: 25,
    processes: [proc],
    timedOut: () =>
      errors.processFailed(
        `${proc.name} did not print ${pattern} within ${timeoutMs} ms; last output: ${proc.outputTail().trim().slice(-400)}`,
      ),
  });
}
