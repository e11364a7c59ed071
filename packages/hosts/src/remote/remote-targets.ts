import { readFileSync } from 'node:fs';
import {
  type Availability,
  type ProcessHost,
  type RunningTarget,
  type Scenario,
  type TargetPlugin,
  type TargetStartOptions,
} from '@bench/core';
import type { RemoteStartOptions } from '../protocol/messages.js';
import type { AgentConnection } from './agent-connection.js';

/** A run's start options as the agent takes them: the address is the agent's own, the TLS files go as their text. */
function remoteOptions(options: TargetStartOptions): RemoteStartOptions {
  const { host: _host, tls, ...rest } = options;
  return {
    ...rest,
    ...(tls
      ? { tls: { ca: readFileSync(tls.caFile, 'utf8'), cert: readFileSync(tls.certFile, 'utf8'), key: readFileSync(tls.keyFile, 'utf8') } }
      : {}),
  };
}

/**
 * The registry's targets as they are on another host: each one's name, scenarios and protocols as here (the same bench
 * runs there), its availability that host's, and start() starting it there through the agent. A stack started so
 * names its host, so bench samples, pins and reads it there.
 */
export function remoteTargets(
  connection: AgentConnection,
  processHost: ProcessHost,
  registry: readonly TargetPlugin[],
  doctorHint: string,
): TargetPlugin[] {
  let availability: Promise<Record<string, Availability>> | undefined;
  // an alias (bench noise's A and B) is started there by the name the agent's registry knows
  const nameThere = (target: TargetPlugin) => target.aliasOf ?? target.name;
  const availableThere = () =>
    (availability ??= connection.request('available', { targets: [...new Set(registry.filter((t) => !t.reset).map(nameThere))] }));

  const startThere = async (target: TargetPlugin, scenarios: readonly Scenario[], options: TargetStartOptions): Promise<RunningTarget> => {
    const stack = await connection.request('start-target', {
      target: nameThere(target),
      scenarios: scenarios.map((s) => s.name),
      options: remoteOptions(options),
    });
    let stopped = false;
    const crashed = new Promise<string>((resolve) => {
      const forget = connection.onEvent((event) => {
        if (event.event === 'crashed' && event.stack === stack.stack) {
          forget();
          if (!stopped) resolve(String(event.detail));
        }
      });
      void connection.gone.then((error) => {
        forget();
        if (!stopped) resolve(error.message);
      });
    });
    return {
      url: stack.url,
      processGroups: stack.processGroups,
      settings: { ...stack.settings, host: processHost.name },
      host: processHost,
      crashed,
      async stop() {
        stopped = true;
        await connection.request('stop-target', { stack: stack.stack });
      },
    };
  };

  return registry.map((target): TargetPlugin => {
    const there: TargetPlugin = {
      name: target.name,
      language: target.language,
      description: target.description,
      ...(target.processNames ? { processNames: target.processNames } : {}),
      ...(target.protocols ? { protocols: target.protocols } : {}),
      ...(target.protocolsNote ? { protocolsNote: target.protocolsNote } : {}),
      supports: (scenario) => target.supports(scenario),
      async available() {
        // a reset runs where bench runs: a target that resets its state is run on this machine only
        if (target.reset) return { ok: false, reason: `it resets its state on this machine, so it cannot run on ${processHost.name}` };
        const found = (await availableThere())[nameThere(target)];
        if (!found) return { ok: false, reason: `the agent on ${processHost.name} does not know it` };
        return found.ok ? found : { ...found, reason: `on ${processHost.name}: ${found.reason ?? 'not available'} (${doctorHint})` };
      },
      start: (scenario, options) => startThere(target, [scenario], options),
      ...(target.startMany ? { startMany: (scenarios, options) => startThere(target, scenarios, options) } : {}),
    };
    return there;
  });
}
