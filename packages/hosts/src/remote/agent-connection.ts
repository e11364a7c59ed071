import { spawn, type ChildProcess } from 'node:child_process';
import { BenchError, errorFromHost, errors, reaperForgetGroup, reaperTrackGroup, type BenchErrorCode } from '@bench/core';
import { AGENT_PROTOCOL, type AgentHello, type AgentOp, type AgentOps, type AgentReply } from '../protocol/messages.js';
import { jsonLine, readJsonLines } from '../protocol/json-lines.js';
import { watchSilence, type SilenceWatch } from '../protocol/silence-watch.js';
import { NO_BENCH_EXIT, NO_FOLDER_EXIT, sshArguments, type SshSettings } from '../ssh/ssh-command.js';
import type { SshHost } from '../ssh/ssh-url.js';

/** How often the runner tells the agent it is there; the agent waits AGENT_IDLE_MS for it. */
const PING_MS = 1000;
/** The runner takes a host that says nothing for this long (not even a reply to a ping) for gone. */
export const HOST_SILENT_MS = 6000;
/** The agent's hello must come within this long of ssh's start (a first npx on a cold disk takes a few seconds). */
const HELLO_MS = 60_000;
const STDERR_KEPT = 8192;

type Pending = { resolve(value: unknown): void; reject(error: unknown): void };

/** What the agent sent unasked, other than its hello. */
export type AgentListener = (event: { readonly event: string } & Record<string, unknown>) => void;

/**
 * One SSH session to a host with `bench agent` at its other end: requests and their replies, the agent's events,
 * heartbeats both ways, and `gone` settling with why when the session ends without close().
 */
export class AgentConnection {
  readonly hello: AgentHello;
  /** Settles when the host went away (the session ended, or it fell silent); pending while it is there. */
  readonly gone: Promise<BenchError>;
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<AgentListener>();
  private nextId = 1;
  private closing = false;
  private lostBecause: BenchError | undefined;
  private markGone!: (error: BenchError) => void;
  private ping: NodeJS.Timeout | undefined;
  private silence: SilenceWatch | undefined;

  private constructor(
    readonly host: SshHost,
    child: ChildProcess,
    hello: AgentHello,
  ) {
    this.child = child;
    this.hello = hello;
    this.gone = new Promise((resolve) => (this.markGone = resolve));
  }

  /**
   * Starts ssh and waits for the agent's hello: refused in one line (exit 2) when the host cannot be reached, refuses
   * the key, has no bench, or has another version of it.
   */
  static async open(host: SshHost, settings: SshSettings, version: string): Promise<AgentConnection> {
    // its own process group, so a Ctrl-C for the runner does not cut the session before the runner stops the stacks;
    // the watcher ends it if the runner dies (the agent then sees its input close)
    const child = spawn('ssh', sshArguments(host, settings, ['agent']), { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    if (child.pid !== undefined) reaperTrackGroup(child.pid);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT);
    });
    child.stdin?.on('error', () => {});
    const early: unknown[] = [];
    let onMessage: (message: unknown) => void = (message) => void early.push(message);
    let bad: string | undefined;
    readJsonLines(
      child.stdout,
      (message) => onMessage(message),
      (why) => {
        bad = why;
        child.kill('SIGKILL');
      },
    );
    const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
      child.once('error', (error) => resolve({ code: null, error }));
      child.once('exit', (code) => resolve({ code }));
    });
    const hello = await new Promise<AgentHello | { code: number | null; error?: Error } | 'timeout'>((resolve) => {
      const timer = setTimeout(() => resolve('timeout'), HELLO_MS);
      onMessage = (message) => {
        clearTimeout(timer);
        resolve(message as AgentHello);
      };
      if (early.length > 0) onMessage(early.shift());
      void exited.then((outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      });
    });
    const fail = (error: BenchError) => {
      child.kill('SIGKILL');
      if (child.pid !== undefined) reaperForgetGroup(child.pid);
      return error;
    };
    if (hello === 'timeout') throw fail(errors.hostUnreachable(host.label, `no answer from bench there in ${HELLO_MS / 1000} s`));
    if (!('event' in hello)) throw fail(refusal(host, settings, hello, stderr, bad));
    if (typeof hello !== 'object' || hello.event !== 'hello' || typeof hello.bench !== 'string' || typeof hello.cores !== 'number')
      throw fail(errors.agent(host.label, `it said ${JSON.stringify(hello).slice(0, 120)} where a hello was due`));
    if (hello.bench !== version) throw fail(errors.hostVersion(host.label, version, hello.bench));
    if (hello.protocol !== AGENT_PROTOCOL)
      throw fail(errors.agent(host.label, `it speaks protocol ${hello.protocol}, this bench ${AGENT_PROTOCOL}`));
    const connection = new AgentConnection(host, child, hello);
    connection.attach(exited, () => stderr);
    onMessage = (message) => connection.take(message);
    return connection;
  }

  /** Sends a request; its reply's result, or the agent's error as a BenchError naming the host. */
  request<O extends AgentOp>(op: O, args: AgentOps[O]['args']): Promise<AgentOps[O]['result']> {
    if (this.lostBecause) return Promise.reject(this.lostBecause);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve, reject });
      this.child.stdin?.write(jsonLine({ ...args, id, op }));
    });
  }

  /** Calls `listener` with every event the agent sends (a sampler's look, a stack that died). */
  onEvent(listener: AgentListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Ends the session: the agent stops whatever is still running and exits; ssh is killed if it lingers. */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.ping);
    this.silence?.stop();
    this.child.stdin?.end();
    const exited = new Promise<void>((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) resolve();
      else this.child.once('exit', () => resolve());
    });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
    if (this.child.pid !== undefined) reaperForgetGroup(this.child.pid);
    this.lose(errors.hostGone(this.host.label, 'the run closed its session'));
  }

  private attach(exited: Promise<{ code: number | null; error?: Error }>, stderr: () => string): void {
    void exited.then(({ code }) => {
      const last = lastLine(stderr());
      this.lose(errors.hostGone(this.host.label, `its SSH session ended (exit ${code ?? 'by a signal'}${last ? `: ${last}` : ''})`));
    });
    this.silence = watchSilence(HOST_SILENT_MS, PING_MS / 4, () => {
      this.lose(errors.hostGone(this.host.label, `it said nothing for ${HOST_SILENT_MS / 1000} s`));
      this.child.kill('SIGKILL');
    });
    this.ping = setInterval(() => void this.request('ping', {}).catch(() => undefined), PING_MS);
    this.ping.unref();
  }

  private take(message: unknown): void {
    this.silence?.heard();
    if (typeof message !== 'object' || message === null) return;
    const reply = message as AgentReply & { event?: string };
    if (typeof reply.event === 'string') {
      for (const listener of this.listeners) listener(reply as unknown as Parameters<AgentListener>[0]);
      return;
    }
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (reply.ok) pending.resolve(reply.result);
    else pending.reject(errorFromHost(this.host.label, reply.error.code as BenchErrorCode, reply.error.message, reply.error.exitCode));
  }

  private lose(error: BenchError): void {
    if (this.lostBecause) return;
    this.lostBecause = error;
    clearInterval(this.ping);
    this.silence?.stop();
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    if (!this.closing) this.markGone(error);
  }
}

const lastLine = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1);

/** Why a session ended before the agent's hello: ssh's own refusal, no bench there, or the agent's last words. */
function refusal(
  host: SshHost,
  settings: SshSettings,
  outcome: { code: number | null; error?: Error },
  stderr: string,
  bad: string | undefined,
): BenchError {
  if (outcome.error)
    return errors.usage(`cannot run ssh to reach ${host.label}: ${outcome.error.message} (apt-get install openssh-client)`);
  // ssh names the login as user@host: the user part stays out of every message
  const last = (lastLine(stderr) ?? `ssh exited ${outcome.code}`).replace(/^[^\s@]+@/, '');
  if (bad !== undefined) return errors.agent(host.label, `it sent ${bad} before its hello (is something printing at login?)`);
  if (outcome.code === NO_BENCH_EXIT || outcome.code === NO_FOLDER_EXIT || /bench-agent: /.test(stderr))
    return errors.hostNoBench(host.label, settings.remoteDir !== undefined ? `in ${settings.remoteDir}` : 'on its PATH');
  if (outcome.code === 255) {
    if (
      /Permission denied|Too many authentication failures|Host key verification failed|host key for .* has changed|No .* host key is known/i.test(
        stderr,
      )
    )
      return errors.hostAuth(host.label, last);
    return errors.hostUnreachable(host.label, last);
  }
  return errors.agent(host.label, `it ended before its hello (exit ${outcome.code}): ${last}`);
}
