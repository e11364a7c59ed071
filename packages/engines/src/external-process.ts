import { spawnGroup, type GroupExit, type ResourceSample } from '@bench/core';
import { sampleProcessGroups } from '@bench/core';

export interface ExternalRun {
  readonly exit: GroupExit;
  readonly stdout: string;
  /** The last lines it printed on stdout and stderr, for error messages. */
  readonly outputTail: string;
  /** The generator's CPU and memory, sampled from /proc by its process group. */
  readonly client?: ResourceSample;
  /** When it was spawned: process.hrtime.bigint() and Date.now(), read together right before. */
  readonly spawnedAtNs: bigint;
  readonly spawnedAtMs: number;
  /** The generator's CPU in each second counted from `startNs` (a process.hrtime.bigint() reading), percent of one core. */
  clientCpuPerSecond(startNs: bigint): number[];
}

export interface ExternalRunOptions {
  readonly name: string;
  readonly cwd?: string;
  /** Pin the generator to these CPUs (taskset -c LIST). */
  readonly cpus?: string;
  readonly signal?: AbortSignal;
  /** More environment for the program (k6's SSL_CERT_FILE: the run's CA). */
  readonly env?: Readonly<Record<string, string>>;
  /** Called with each line the program prints, as it prints it. */
  readonly onLine?: (line: string, interrupt: () => void) => void;
}

/**
 * Runs a load generator (wrk, ab, k6) in a process group of its own, so it dies with the run
 * whatever happens; aborting sends it SIGINT (both wrk and ab print their results on SIGINT), then stops the group.
 */
export async function runExternal(command: string, args: readonly string[], options: ExternalRunOptions): Promise<ExternalRun> {
  const [file, argv] = options.cpus ? ['taskset', ['-c', options.cpus, command, ...args]] : [command, [...args]];
  const spawnedAtNs = process.hrtime.bigint();
  const spawnedAtMs = Date.now();
  const proc = spawnGroup(file, argv, {
    name: options.name,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
    captureStdout: true,
  });
  // sampled often: an exited process's CPU can no longer be read, so the last interval is lost
  const sampler = sampleProcessGroups({ client: [proc.pid] }, 100);
  const interrupt = () => {
    try {
      process.kill(-proc.pid, 'SIGINT');
    } catch {
      // already gone
    }
  };
  let seen = 0;
  const watch = options.onLine
    ? setInterval(() => {
        const lines = proc.stdout().split('\n');
        for (; seen < lines.length - 1; seen++) options.onLine?.(lines[seen] ?? '', interrupt);
      }, 20)
    : undefined;
  options.signal?.addEventListener('abort', interrupt, { once: true });
  // a signal aborted before the program started (a stop asked while the engine prepared its run) fires no event
  if (options.signal?.aborted) interrupt();
  try {
    const exit = await proc.exited;
    const { client } = sampler.stop();
    return {
      exit,
      stdout: proc.stdout(),
      outputTail: proc.outputTail().trim().split('\n').slice(-3).join(' | '),
      ...(client ? { client } : {}),
      spawnedAtNs,
      spawnedAtMs,
      clientCpuPerSecond: (startNs) => (sampler.perSecond(startNs).client ?? []).map((second) => second.cpuPercent),
    };
  } finally {
    if (watch) clearInterval(watch);
    options.signal?.removeEventListener('abort', interrupt);
    await proc.stop(1000);
  }
}
