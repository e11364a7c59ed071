import type { BenchError, HostInfo, ProcessHost, TargetPlugin } from '@bench/core';
import type { ServiceManager } from '@bench/services';
import { readLinkProbe } from '../agent/link-probe.js';
import { AgentConnection } from './agent-connection.js';
import { remoteProcessHost } from './remote-process-host.js';
import { remoteServices } from './remote-services.js';
import { remoteTargets } from './remote-targets.js';
import type { SshSettings } from '../ssh/ssh-command.js';
import type { SshHost } from '../ssh/ssh-url.js';

/** How long the link probe sends: long enough for TCP's window to open, short enough to cost nothing beside a run. */
const LINK_PROBE_MS = 1000;

/** A host bench reached over SSH, with its agent running: what runs there is started, watched and stopped through it. */
export interface RemoteHost {
  /** How results and messages name it (from its SSH URL, without the user). */
  readonly label: string;
  /** The machine, as its agent describes it. */
  readonly info: HostInfo;
  /** The address its servers listen on: where this machine reached it over SSH. */
  readonly address: string;
  readonly processHost: ProcessHost;
  /** Settles when the host went away. */
  readonly gone: Promise<BenchError>;
  /** The registry's targets as they are there: started there, bound to its address. */
  targets(registry: readonly TargetPlugin[]): TargetPlugin[];
  /** The services there: for the stacks beside them (`exposed` false), or for stacks on another host. */
  services(exposed: boolean): ServiceManager;
  /** Bytes a second the link from that host to this machine carried in a one-second transfer. */
  measureLink(): Promise<number>;
  /** `bench doctor` run there. */
  doctor(): Promise<string>;
  /** Ends the session: the agent stops what still runs there and exits. */
  close(): Promise<void>;
}

/** Reaches a host over SSH and starts its agent (refused in one line, exit 2, when that cannot be done). */
export async function connectHost(host: SshHost, settings: SshSettings, version: string, flag: string): Promise<RemoteHost> {
  const connection = await AgentConnection.open(host, settings, version);
  const label = host.label;
  const processHost = remoteProcessHost(connection, label);
  const doctorHint = `\`bench doctor ${flag} ${host.url.replace(/\/\/[^@/]*@/, '//')}\` lists what it lacks`;
  return {
    label,
    info: connection.hello.host,
    address: connection.hello.address,
    processHost,
    gone: connection.gone,
    targets: (registry) => remoteTargets(connection, processHost, registry, doctorHint),
    services: (exposed) => remoteServices(connection, processHost, exposed),
    async measureLink() {
      const { port } = await connection.request('link-probe', { milliseconds: LINK_PROBE_MS });
      return readLinkProbe(connection.hello.address, port);
    },
    doctor: async () => (await connection.request('doctor', {})).text,
    close: () => connection.close(),
  };
}
