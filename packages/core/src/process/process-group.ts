import { spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { errors } from '../errors.js';
import { listGroupMembers } from './proc-table.js';
import { reaperForgetGroup, reaperTrackGroup } from './reaper.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { settledWithin } from './settled-within.js';

export interface GroupExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly error?: string;
}

/** A child process that leads a process group of its own; stopping it stops the whole group. */
export interface GroupProcess {
  readonly name: string;
  /** The leader's pid, which is also the process group id. */
  readonly pid: number;
  /** Settles when the leader exits (or fails to spawn). */
  readonly exited: Promise<GroupExit>;
  hasExited(): boolean;
  /** The last few KiB of what the group wrote to stdout and stderr. */
  outputTail(): string;
  /** Everything the leader wrote to stdout, when spawned with captureStdout (a load generator's report). */
  stdout(): string;
  /** TERM to the group, KILL after graceMs if anything is left; resolves when no member is alive. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnGroupOptions {
  readonly name: string;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Also append everything the group prints to this file. */
  readonly logFile?: string;
  /** Keep all of stdout (not only the tail), for programs whose output is their result. */
  readonly captureStdout?: boolean;
  /** Run as this user and group (a server that refuses root, started by root). */
  readonly user?: { readonly uid: number; readonly gid: number };
}

const TAIL_BYTES = 8192;
const liveGroups = new Set<number>();
let exitHookInstalled = false;

// Whatever way the runner exits on its own, no group it started survives it; for the ways it cannot
// act on (SIGKILL, the OOM killer), the watcher in reaper.ts does the same.
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => killAllGroupsNow());
}

/** SIGKILLs every group still registered; synchronous, for exit paths. */
export function killAllGroupsNow(): void {
  for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
  liveGroups.clear();
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

async function waitGroupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (listGroupMembers(pgid).length === 0) return true;
    if (Date.now() >= deadline) return false;
    await sleep(25);
  }
}

// Argument arrays only: no string reaches a shell.
export function spawnGroup(command: string, args: readonly string[], options: SpawnGroupOptions): GroupProcess {
  installExitHook();
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true, // setsid(): the child leads its own process group
    ...(options.user ? { uid: options.user.uid, gid: options.user.gid } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  let log: WriteStream | undefined;
  if (options.logFile) log = createWriteStream(options.logFile, { flags: 'a' });
  const onData = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-TAIL_BYTES);
    // a group's other members can still write to the pipes after its leader exited and its log was closed
    if (log && !log.writableEnded) log.write(chunk);
  };
  let stdout = '';
  child.stdout?.on('data', onData);
  if (options.captureStdout) child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', onData);

  let done = false;
  const exited = new Promise<GroupExit>((resolve) => {
    child.once('error', (error) => {
      done = true;
      resolve({ code: null, signal: null, error: error.message });
    });
    child.once('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });
  // the log closes once the pipes have (output can follow the leader's exit), or when the leader failed to start
  const closeLog = () => {
    if (log && !log.writableEnded) log.end();
  };
  child.once('close', closeLog);
  child.once('error', closeLog);

  const pid = child.pid ?? -1;
  if (pid > 0) {
    liveGroups.add(pid);
    reaperTrackGroup(pid);
  }

  return {
    name: options.name,
    pid,
    exited,
    hasExited: () => done,
    outputTail: () => tail,
    stdout: () => stdout,
    async stop(graceMs = 5000) {
      if (pid <= 0) return;
      signalGroup(pid, 'SIGTERM');
      if (!(await waitGroupGone(pid, graceMs))) {
        signalGroup(pid, 'SIGKILL');
        await waitGroupGone(pid, 2000);
      }
      if (!done) await settledWithin(exited, 1000);
      liveGroups.delete(pid);
      reaperForgetGroup(pid);
    },
  };
}

/** Runs a one-shot program in a process group of its own (so it dies with the run too) and waits for it; throws with its output unless it exits 0. */
export async function runGroupToCompletion(command: string, args: readonly string[], options: SpawnGroupOptions): Promise<string> {
  const proc = spawnGroup(command, args, { ...options, captureStdout: true });
  const exit = await proc.exited;
  await proc.stop(1000);
  if (exit.code !== 0) throw errors.processFailed(describeExit(proc, exit));
  return proc.stdout();
}

/** One line that says how a process ended, with the tail of its output. */
export function describeExit(proc: GroupProcess, exit: GroupExit): string {
  const how = exit.error ?? (exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code}`);
  const output = proc.outputTail().trim().split('\n').slice(-6).join(' | ');
  return output ? `${proc.name} ${how}; last output: ${output}` : `${proc.name} ${how} with no output`;
}
