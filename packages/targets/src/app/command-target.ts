import path from 'node:path';
import {
  choosePort,
  errors,
  isBenchError,
  listenHost,
  withStackEnvironment,
  type Protocol,
  type TargetPlugin,
  type TargetStartOptions,
} from '@bench/core';
import { findBinary, isExecutable } from '@bench/core';
import { makeStackDir, startStack } from '../support/stack.js';
import { targetReset, type ResetSpec } from './target-reset.js';

/** An app's own server, started by bench: the `{ name, command, ... }` form of a config target. */
export interface CommandTargetSpec {
  readonly name: string;
  readonly command: string;
  readonly args?: readonly string[];
  /** Absolute, or relative to the config file's folder (resolved before it gets here). */
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Port the server must listen on; a free one when absent. */
  readonly port?: number;
  readonly ready?: { readonly path?: string; readonly status?: number; readonly timeoutSeconds?: number };
  /** What bench runs before every cell so each sees the same data. */
  readonly reset?: ResetSpec;
  /** The protocols the app can serve (`--protocol`); over TLS it gets the run's certificate as `{cert}` and `{key}`. */
  readonly protocols?: readonly Protocol[];
}

/** `{port}`, `{protocol}`, and over TLS `{cert}` and `{key}` (the run's certificate and key files), in an arg or env value. */
function withPlaceholders(text: string, port: number, options: TargetStartOptions): string {
  return text
    .replaceAll('{port}', String(port))
    .replaceAll('{protocol}', options.protocol ?? 'http1')
    .replaceAll('{cert}', options.tls?.certFile ?? '')
    .replaceAll('{key}', options.tls?.keyFile ?? '');
}

function resolveCommand(command: string, cwd: string | undefined): string | undefined {
  if (!command.includes('/')) return findBinary(command);
  const file = path.resolve(cwd ?? process.cwd(), command);
  return isExecutable(file) ? file : undefined;
}

/**
 * Starts the command in a process group of its own on 127.0.0.1 with bench's environment plus
 * `env`, PORT and HOST (and `{port}` replaced in args and env); ready when `ready.path` answers
 * `ready.status` (any 2xx by default); stopped with its whole group.
 */
export function commandTarget(spec: CommandTargetSpec): TargetPlugin {
  const commandLine = [spec.command, ...(spec.args ?? [])].join(' ');
  return {
    name: spec.name,
    language: 'app',
    description: `the app's own server: ${commandLine}`,
    processNames: [commandLine],
    ...(spec.reset ? { reset: targetReset(spec.name, spec.reset, spec.cwd ?? process.cwd()) } : {}),
    ...(spec.protocols ? { protocols: spec.protocols, protocolsNote: 'the config names the protocols it serves' } : {}),
    supports: () => ({ ok: true }),
    async available() {
      if (resolveCommand(spec.command, spec.cwd)) return { ok: true };
      return { ok: false, reason: `command "${spec.command}" not found${spec.command.includes('/') ? '' : ' on PATH'}` };
    },
    async start(scenario, options) {
      const command = resolveCommand(spec.command, spec.cwd);
      if (!command) throw errors.appTarget(spec.name, `command "${spec.command}" not found`);
      const host = listenHost(options);
      const port = await choosePort(spec.port ?? options.port, host);
      const env: NodeJS.ProcessEnv = { ...process.env };
      for (const [key, value] of Object.entries(spec.env ?? {})) env[key] = withPlaceholders(value, port, options);
      env.PORT = String(port);
      env.HOST = host;
      const timeoutSeconds = spec.ready?.timeoutSeconds ?? 20;
      try {
        const running = await startStack({
          target: spec.name,
          scenarios: [scenario],
          host,
          port,
          dir: makeStackDir('app'),
          processes: [
            {
              name: spec.name,
              command,
              args: (spec.args ?? []).map((arg) => withPlaceholders(arg, port, options)),
              env: withStackEnvironment(env, options.env),
              ...(spec.cwd ? { cwd: spec.cwd } : {}),
            },
          ],
          ready: { path: spec.ready?.path ?? '/', ...(spec.ready?.status !== undefined ? { status: spec.ready.status } : {}) },
          readyTimeoutMs: timeoutSeconds * 1000,
          settings: { command: commandLine, ...(options.protocol ? { protocol: options.protocol } : {}) },
          ...(options.protocol ? { protocol: options.protocol } : {}),
          ...(options.tls ? { tls: options.tls } : {}),
        });
        // the folder its files are named from in a profile: two checkouts of the app name a function alike
        return { ...running, folder: spec.cwd ?? process.cwd() };
      } catch (error) {
        // the app's own command is the user's input: a server that cannot start is bad input, said in one line
        const detail =
          isBenchError(error) && error.cause instanceof Error
            ? error.cause.message
            : error instanceof Error
              ? error.message
              : String(error);
        throw errors.appTarget(spec.name, detail.replace(/\s+/g, ' '));
      }
    },
  };
}
