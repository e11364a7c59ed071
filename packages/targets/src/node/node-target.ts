import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { choosePort, type Availability, type Scenario, type TargetPlugin } from '@bench/core';
import { makeStackDir, startStack } from '../support/stack.js';
import { NODE_SERVER_ENV, READY_LINE, type NodeServerConfig } from './server-config.js';

const serverEntry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server.js');
const require = createRequire(import.meta.url);

export const DEFAULT_POOL_SIZE = 10;

/** The compiled Node handler of a scenario: <scenarios>/dist/<name>/node.js, or node.js/node.mjs beside the manifest. */
export function nodeHandlerPath(scenario: Scenario): string | undefined {
  const candidates = [
    path.join(scenario.dir, '..', 'dist', scenario.name, 'node.js'),
    path.join(scenario.dir, 'node.js'),
    path.join(scenario.dir, 'node.mjs'),
  ];
  return candidates.find((file) => existsSync(file));
}

function fastifyVersion(): string {
  return (require('fastify/package.json') as { version: string }).version;
}

export interface NodeTargetVariant {
  readonly name: string;
  readonly cluster: boolean;
  readonly pool: boolean;
  readonly description: string;
}

export function createNodeTarget(variant: NodeTargetVariant): TargetPlugin {
  return {
    name: variant.name,
    language: 'node',
    description: variant.description,
    supports(scenario) {
      if (!nodeHandlerPath(scenario)) return { ok: false, reason: 'the scenario has no Node handler (node.ts); run `npm run build`' };
      return { ok: true };
    },
    async available(): Promise<Availability> {
      return { ok: true, versions: { node: process.versions.node, fastify: fastifyVersion() } };
    },
    async start(scenario, options) {
      const port = await choosePort(options.port);
      const workers = variant.cluster ? (options.workers ?? os.availableParallelism()) : 0;
      const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
      const config: NodeServerConfig = {
        scenarioDir: scenario.dir,
        handler: nodeHandlerPath(scenario) ?? '',
        port,
        workers,
        pool: { enabled: variant.pool, size: poolSize },
        services: options.services,
      };
      const settings: Record<string, string | number | boolean> = {
        node: process.versions.node,
        fastify: fastifyVersion(),
        processes: variant.cluster ? workers : 1,
      };
      if (variant.pool) settings.poolSize = poolSize;
      return startStack({
        target: variant.name,
        scenario,
        port,
        dir: makeStackDir(variant.name),
        processes: [
          {
            name: variant.name,
            command: process.execPath,
            args: [serverEntry],
            env: { ...process.env, [NODE_SERVER_ENV]: JSON.stringify(config) },
            readyLine: new RegExp(READY_LINE),
          },
        ],
        settings,
      });
    },
  };
}
