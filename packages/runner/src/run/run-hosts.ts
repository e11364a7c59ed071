import path from 'node:path';
import { describeHost, type RunDocument, type RunHosts, type TargetPlugin } from '@bench/core';
import { connectHost, parseSshUrl, type RemoteHost, type SshSettings } from '@bench/hosts';
import { createServiceManager, type ServiceManager } from '@bench/services';
import { TOOL_VERSION } from '../version.js';
import type { CellContext } from './cell-result.js';
import type { Redaction } from '@bench/core';
import { assertHostOptions, hostOptionKeys, type HostOptions } from '../options/host-options.js';

export type { HostOptions } from '../options/host-options.js';

/** The hosts of a run on several machines, their agents running: where its stacks and services start. */
export interface OpenHosts {
  readonly server: RemoteHost;
  readonly database?: RemoteHost;
  /** The registry's targets as they are on the server host. */
  targets(registry: readonly TargetPlugin[]): TargetPlugin[];
  /** The run's services: on the database host, or on the server host beside the stacks. */
  readonly services: ServiceManager;
  /** Each machine, for the results; the link's rate once measured. */
  document(): RunHosts;
  /** Measures the link from the server host to this machine (once, before the first cell). */
  measureLink(): Promise<number>;
  close(): Promise<void>;
}

/** The host options of a command that reads them from flags: each flag over the config's (`hosts` or `defaults`). */
export function flagsOverConfig(flags: HostOptions, project: { readonly defaults?: HostOptions | undefined }): HostOptions {
  const pick = (key: keyof HostOptions) => flags[key] ?? project.defaults?.[key];
  const chosen: Record<string, string> = {};
  for (const key of hostOptionKeys) {
    const value = pick(key);
    if (value !== undefined) chosen[key] = value;
  }
  assertHostOptions(chosen);
  return chosen;
}

/** The services of a run: on the hosts it names, or on this machine. */
export const servicesOf = (hosts: OpenHosts | undefined): ServiceManager => hosts?.services ?? createServiceManager();

/**
 * Reaches the hosts the options name (none: undefined) and starts their agents; one that cannot be reached, refuses
 * the key, or has no bench or another bench is refused before anything starts, and the other is closed.
 */
export async function openHosts(options: HostOptions): Promise<OpenHosts | undefined> {
  if (options.serverHost === undefined) return undefined;
  const settings: SshSettings = {
    ...(options.sshConfig !== undefined ? { sshConfig: path.resolve(options.sshConfig) } : {}),
    ...(options.remoteDir !== undefined ? { remoteDir: options.remoteDir } : {}),
  };
  const server = await connectHost(parseSshUrl('--server-host', options.serverHost), settings, TOOL_VERSION, '--server-host');
  let database: RemoteHost | undefined;
  try {
    if (options.databaseHost !== undefined)
      database = await connectHost(parseSshUrl('--database-host', options.databaseHost), settings, TOOL_VERSION, '--database-host');
  } catch (error) {
    await server.close();
    throw error;
  }
  const services = database ? database.services(true) : server.services(false);
  let link: number | undefined;
  return {
    server,
    ...(database ? { database } : {}),
    targets: (registry) => server.targets(registry),
    services,
    document: () => ({
      client: describeHost(TOOL_VERSION),
      server: { ...server.info, name: server.label, address: server.address, cores: server.processHost.cores },
      ...(database
        ? { database: { ...database.info, name: database.label, address: database.address, cores: database.processHost.cores } }
        : {}),
      ...(link !== undefined ? { link: { bytesPerSecond: Math.round(link) } } : {}),
    }),
    async measureLink() {
      link ??= await server.measureLink();
      return link;
    },
    async close() {
      await Promise.allSettled([server.close(), database?.close()]);
    },
  };
}

/** What every cell of a run on several hosts records of them: this machine's name, where it ran, the link's rate. */
export type CellPlace = Pick<CellContext, 'clientHost' | 'hosts' | 'link'>;

/**
 * Before the first cell of a run on several hosts: the link measured, every machine written into the document (as the
 * redaction shows it), and what each cell records of them; `say` tells where things run. Nothing on one machine.
 */
export async function placeRun(
  hosts: OpenHosts | undefined,
  doc: RunDocument,
  redaction: Redaction,
  say: (line: string) => void = () => {},
): Promise<CellPlace> {
  if (!hosts) return {};
  const bytesPerSecond = await hosts.measureLink();
  const { server, database } = hosts;
  say(
    `the stacks run on ${server.label} (${server.address}, ${server.processHost.cores} ${server.processHost.cores === 1 ? 'core' : 'cores'}), their services on ${(database ?? server).label}; ` +
      `the link from ${server.label} carried ${(bytesPerSecond / 1e6).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB/s`,
  );
  doc.hosts = redaction.value(hosts.document());
  doc.machine = { ...doc.machine, sharedHost: false };
  return {
    clientHost: doc.hosts.client.hostname,
    hosts: { server: hosts.server.label, services: (hosts.database ?? hosts.server).label },
    ...(bytesPerSecond > 0 ? { link: { bytesPerSecond } } : {}),
  };
}
