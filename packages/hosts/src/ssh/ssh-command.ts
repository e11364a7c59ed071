import type { SshHost } from './ssh-url.js';

/** How bench reaches a host: the user's ssh config file (ssh -F), and where bench is installed there. */
export interface SshSettings {
  /** An ssh config file in place of ~/.ssh/config (OpenSSH reads ~/.ssh from the account, not from $HOME). */
  readonly sshConfig?: string;
  /** The folder bench is installed in on the host (`npx --no-install bench` there); else `bench` on its PATH. */
  readonly remoteDir?: string;
}

/** The seconds of silence after which ssh takes the host for gone: ServerAliveInterval x ServerAliveCountMax. */
export const SSH_ALIVE_INTERVAL = 2;
export const SSH_ALIVE_COUNT = 3;

/** A word for a POSIX shell, quoted. */
export const shellQuote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/** Exit codes of the remote command when it finds no bench, told apart from ssh's own 255. */
export const NO_BENCH_EXIT = 127;
export const NO_FOLDER_EXIT = 126;

/**
 * The command the host's shell runs: `bench <command>` from --remote-dir's install (npx --no-install, so nothing is
 * downloaded), else from the PATH, with a line on stderr and a code of its own when there is none.
 */
export function remoteBenchCommand(settings: SshSettings, command: readonly string[]): string {
  const args = command.map(shellQuote).join(' ');
  const quiet = 'NO_UPDATE_NOTIFIER=1 npm_config_update_notifier=false';
  if (settings.remoteDir !== undefined) {
    const dir = shellQuote(settings.remoteDir);
    return [
      `cd ${dir} 2>/dev/null || { echo "bench-agent: no folder "${dir} >&2; exit ${NO_FOLDER_EXIT}; }`,
      `[ -e node_modules/.bin/bench ] || { echo "bench-agent: no bench installed in "${dir} >&2; exit ${NO_BENCH_EXIT}; }`,
      `command -v npx >/dev/null 2>&1 || { echo "bench-agent: no npx on the PATH" >&2; exit ${NO_BENCH_EXIT}; }`,
      `exec env ${quiet} npx --no-install bench ${args}`,
    ].join('; ');
  }
  return [
    `command -v bench >/dev/null 2>&1 || { echo "bench-agent: no bench on the PATH" >&2; exit ${NO_BENCH_EXIT}; }`,
    `exec env ${quiet} bench ${args}`,
  ].join('; ');
}

/**
 * ssh's arguments: the user's config (or --ssh-config's), BatchMode (never a prompt: a password or an unknown host key
 * fails at once), keep-alives so a host that stops answering is noticed, no terminal, no escape character.
 */
export function sshArguments(host: SshHost, settings: SshSettings, command: readonly string[]): string[] {
  return [
    ...(settings.sshConfig !== undefined ? ['-F', settings.sshConfig] : []),
    '-T',
    '-e',
    'none',
    '-o',
    'BatchMode=yes',
    '-o',
    `ServerAliveInterval=${SSH_ALIVE_INTERVAL}`,
    '-o',
    `ServerAliveCountMax=${SSH_ALIVE_COUNT}`,
    '-o',
    'ConnectTimeout=10',
    ...(host.port !== undefined ? ['-p', String(host.port)] : []),
    ...(host.user !== undefined ? ['-l', host.user] : []),
    '--',
    host.host,
    remoteBenchCommand(settings, command),
  ];
}
