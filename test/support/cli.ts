import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cliPath = path.join(repoRoot, 'packages', 'runner', 'bin', 'bench.js');

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly timeoutMs?: number;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Run as this unprivileged uid (and gid) through setpriv; the test process must be root. */
  readonly asUid?: number;
  /** runCli: this bench CLI instead of this checkout's. */
  readonly cli?: string;
  /** runCli: this Node instead of the one running the tests. */
  readonly node?: string;
  /** Called with the process as soon as it starts (to send it signals). */
  readonly onSpawn?: (child: import('node:child_process').ChildProcess, output: () => string) => void;
}

/** Runs a command, collecting its output; rejects with the output so far if it outlives the timeout. */
export function runProcess(command: string, args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], {
      cwd: options.cwd ?? repoRoot,
      env: { ...process.env, CI: 'true', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`${command} ${args.join(' ')} did not finish in ${options.timeoutMs ?? 60_000} ms\nstdout: ${stdout}\nstderr: ${stderr}`),
      );
    }, options.timeoutMs ?? 60_000);
    options.onSpawn?.(child, () => stdout + stderr);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Runs the built CLI as a user would (optionally as an unprivileged user). */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const cli = options.cli ?? cliPath;
  const node = options.node ?? process.execPath;
  const command =
    options.asUid === undefined
      ? [node, cli]
      : ['setpriv', `--reuid=${options.asUid}`, `--regid=${options.asUid}`, '--clear-groups', '--', node, cli];
  return runProcess(command[0] ?? node, [...command.slice(1), ...args], options);
}

/** Resolves once `output()` matches, polling; the error shows the output so far. */
export async function waitForText(output: () => string, pattern: RegExp, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(output())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; output so far:\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
