import path from 'node:path';
import {
  messageOf,
  describeExit,
  errors,
  LOOPBACK,
  makePrivateDir,
  removeDir,
  schemeOf,
  spawnGroup,
  timedStep,
  waitForHttp,
  type GroupProcess,
  type Protocol,
  type TlsMaterial,
  type RunningTarget,
  type Scenario,
} from '@bench/core';
import { waitForOutput } from '@bench/core';

export interface StackProcessSpec {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** A line the process prints once it is ready; the next process starts only then. */
  readonly readyLine?: RegExp;
}

/** What a stack serves: one scenario (`scenario`), or several at once (`scenarios`, a target's startMany). */
type StackScenarios =
  { readonly scenario: Scenario; readonly scenarios?: never } | { readonly scenarios: readonly Scenario[]; readonly scenario?: never };

export type StartStackOptions = StackOptions & StackScenarios;

interface StackOptions {
  readonly target: string;
  /** The address the stack listens on (127.0.0.1 when absent). */
  readonly host?: string;
  readonly port: number;
  /** Private directory holding the generated configs and logs; removed on stop. */
  readonly dir: string;
  /** Started in order, stopped in reverse order. */
  readonly processes: readonly StackProcessSpec[];
  readonly settings: Readonly<Record<string, string | number | boolean>>;
  readonly readyTimeoutMs?: number;
  /** The request that says the stack is ready: this path answering this status (any 2xx when absent); the first scenario's path by default. */
  readonly ready?: { readonly path: string; readonly status?: number };
  /** What the stack serves (`--protocol`), and over TLS the run's certificates (readiness is checked against its CA). */
  readonly protocol?: Protocol;
  readonly tls?: TlsMaterial;
}

/** Private directory for one target start, named after the target. */
export function makeStackDir(target: string): string {
  return makePrivateDir(target);
}

// Starts the processes of one stack, waits until a real request to the (first) scenario's path answers 2xx,
// and returns a handle that stops every process group of the stack (timed under BENCH_START_TIMES).
export function startStack(options: StartStackOptions): Promise<RunningTarget> {
  return timedStep('stack', options.target, () => startStackProcesses(options));
}

async function startStackProcesses(options: StartStackOptions): Promise<RunningTarget> {
  const { target, port, dir } = options;
  const scenarios = options.scenarios ?? [options.scenario];
  const names = scenarios.map((s) => s.name).join(', ');
  const protocol = options.protocol ?? 'http1';
  const url = `${schemeOf(protocol)}://${options.host ?? LOOPBACK}:${port}`;
  const started: GroupProcess[] = [];
  let stopping = false;

  const stop = async () => {
    stopping = true;
    for (const proc of [...started].reverse()) await proc.stop();
    removeDir(dir);
  };

  try {
    for (const spec of options.processes) {
      const proc = spawnGroup(spec.command, spec.args, {
        name: spec.name,
        cwd: spec.cwd ?? dir,
        env: spec.env,
        logFile: path.join(dir, `${spec.name}.log`),
      });
      started.push(proc);
      if (spec.readyLine) await waitForOutput(proc, spec.readyLine, options.readyTimeoutMs ?? 20_000);
    }
    const ready = options.ready ?? { path: scenarios[0]?.request.path ?? '/' };
    await waitForHttp(url + ready.path, {
      processes: started,
      timeoutMs: options.readyTimeoutMs ?? 20_000,
      ...(ready.status !== undefined ? { status: ready.status } : {}),
      transport: { protocol, ...(options.tls ? { caFile: options.tls.caFile } : {}) },
    });
  } catch (error) {
    await stop();
    throw errors.targetStart(target, names, messageOf(error), error);
  }

  const crashed = new Promise<string>((resolve) => {
    for (const proc of started) {
      void proc.exited.then((exit) => {
        if (!stopping) resolve(describeExit(proc, exit));
      });
    }
  });

  return { url, processGroups: started.map((p) => p.pid), settings: options.settings, crashed, stop };
}
