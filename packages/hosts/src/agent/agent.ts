import os from 'node:os';
import { BenchError, describeHost, messageOf, type HostInfo } from '@bench/core';
import { AGENT_PROTOCOL, type AgentHello, type AgentReply } from '../protocol/messages.js';
import { jsonLine, readJsonLines } from '../protocol/json-lines.js';
import { watchSilence } from '../protocol/silence-watch.js';
import { sessionAddress } from './agent-address.js';
import { agentOps, type AgentProject } from './agent-ops.js';

/** An agent that hears nothing from its runner (not even a ping) for this long takes it for gone. */
export const AGENT_IDLE_MS = 5000;

export interface AgentOptions {
  readonly project: AgentProject;
  /** The bench version the agent is. */
  readonly version: string;
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  readonly env?: NodeJS.ProcessEnv;
  readonly idleMs?: number;
  /** This host as the hello describes it (the machine's own description when absent). */
  readonly host?: HostInfo;
}

const isRequest = (message: unknown): message is { id: number; op: string } & Record<string, unknown> =>
  typeof message === 'object' &&
  message !== null &&
  typeof (message as { id?: unknown }).id === 'number' &&
  typeof (message as { op?: unknown }).op === 'string';

/**
 * `bench agent`: says hello, then answers a runner's requests on `input` and `output` until the input closes, the
 * runner falls silent for `idleMs`, or a signal comes; then stops every stack and service it started and resolves
 * with why it ended. Whatever ends it, nothing it started outlives it (a kill -9 of the agent is the watcher's, as
 * for a local run).
 */
export async function runAgent(options: AgentOptions): Promise<string> {
  const address = sessionAddress(options.env);
  const send = (message: unknown) => {
    // a runner that went away leaves a closed pipe: what could not be sent is nobody's to read
    try {
      options.output.write(jsonLine(message));
    } catch {
      // ignored: the input's end follows
    }
  };
  const state = agentOps(options.project, address, send);
  const hello: AgentHello = {
    event: 'hello',
    protocol: AGENT_PROTOCOL,
    bench: options.version,
    host: options.host ?? describeHost(options.version),
    cores: os.availableParallelism(),
    address,
  };
  send(hello);

  return new Promise<string>((resolve) => {
    let ended = false;
    const end = (why: string) => {
      if (ended) return;
      ended = true;
      watch.stop();
      for (const signal of SIGNALS) process.off(signal, onSignal);
      void state.stopAll().then(() => resolve(why));
    };
    const onSignal = (signal: NodeJS.Signals) => end(`signal ${signal}`);
    const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const signal of SIGNALS) process.on(signal, onSignal);
    const idleMs = options.idleMs ?? AGENT_IDLE_MS;
    const watch = watchSilence(idleMs, 250, () => end(`the runner was silent for ${idleMs / 1000} s`));
    readJsonLines(
      options.input,
      (message) => {
        watch.heard();
        if (!isRequest(message)) return end('the runner sent a message that is not a request');
        void answer(message.id, message.op, message);
      },
      (why) => end(`the runner sent ${why}`),
    );
    options.input.on('end', () => end('the runner closed its end'));
    options.input.on('close', () => end('the runner closed its end'));
    options.input.on('error', () => end('the runner closed its end'));

    const answer = async (id: number, op: string, message: Record<string, unknown>) => {
      const handler = (state.handlers as Record<string, ((args: unknown) => Promise<unknown>) | undefined>)[op];
      let reply: AgentReply;
      try {
        if (!handler) throw new Error(`no request "${op}" in protocol ${AGENT_PROTOCOL}`);
        reply = { id, ok: true, result: await handler(message) };
      } catch (error) {
        reply = {
          id,
          ok: false,
          error:
            error instanceof BenchError
              ? { code: error.code, message: error.message, exitCode: error.exitCode }
              : { code: 'BENCH_ERR_AGENT', message: messageOf(error), exitCode: 1 },
        };
      }
      if (!ended) send(reply);
    };
  });
}
