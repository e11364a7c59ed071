import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { allowedCpus, errors, expandCpuList, packageFile, pinProcess } from '@bench/core';
import type { DashboardMessage, RunnerMessage } from './dashboard-messages.js';

const entry = packageFile(import.meta.url, 'dist', 'dashboard', 'dashboard-process.js');

export interface Dashboard {
  /** The page's address with the run's token in it: printed once, written nowhere. */
  readonly url: string;
  /** The run ended: the page offers its final report for a moment, then nothing listens. */
  finish(): Promise<void>;
}

// The CPUs the runner may use less the generator's (--cpus client=): where the dashboard may render.
function cpusBesides(client: string | undefined): string | undefined {
  if (client === undefined) return undefined;
  const taken = new Set(expandCpuList(client));
  const free = expandCpuList(allowedCpus(process.pid) ?? `0-${os.availableParallelism() - 1}`).filter((cpu) => !taken.has(cpu));
  return free.length > 0 ? free.join(',') : undefined;
}

/**
 * A live page of the run on 127.0.0.1, served by a process of its own (dashboard-process.ts), off the generator's
 * CPUs when --cpus pins it: the HTML report of the journal so far, which the page fetches again every second; a
 * browser that opens late or reloads gets the run from its start. At the end it offers the final report, and
 * nothing listens once the run is over.
 */
export async function startDashboard(journal: string, port: number, clientCpus?: string): Promise<Dashboard> {
  // a token of the run's: without it, the page answers nobody (another local user included)
  const token = randomBytes(24).toString('base64url');
  const child = fork(entry, [journal, String(port)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, BENCH_DASHBOARD_TOKEN: token },
  });
  const elsewhere = cpusBesides(clientCpus);
  if (elsewhere !== undefined && child.pid !== undefined) pinProcess(child.pid, elsewhere);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const bound = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: DashboardMessage) => {
      if (message.type === 'listening') resolve(message.port);
      else
        reject(
          message.code === 'EADDRINUSE'
            ? errors.usage(`--dashboard-port ${port} is in use; choose another port, or 0 for any free one`)
            : new Error(`the dashboard could not start: ${message.message}`),
        );
    });
    void exited.then(() => reject(new Error('the dashboard could not start: its process ended')));
  });
  return {
    url: `http://127.0.0.1:${bound}/${token}/`,
    async finish() {
      if (child.connected) child.send({ type: 'finish' } satisfies RunnerMessage);
      await exited;
    },
  };
}
