import { errors } from '@bench/core';

/** The options that name other hosts (--server-host, --database-host, --ssh-config, --remote-dir). */
export interface HostOptions {
  readonly serverHost?: string | undefined;
  readonly databaseHost?: string | undefined;
  readonly sshConfig?: string | undefined;
  readonly remoteDir?: string | undefined;
}

export const hostOptionKeys = ['serverHost', 'databaseHost', 'sshConfig', 'remoteDir'] as const;

/** A database host serves stacks on a server host: one without the other is refused. */
export function assertHostOptions(options: HostOptions): void {
  if (options.databaseHost !== undefined && options.serverHost === undefined)
    throw errors.usage('--database-host starts the services for stacks on a server host: give --server-host too');
}
