import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import {
  type Availability,
  choosePort,
  listenHost,
  packageFile,
  type Scenario,
  type TargetPlugin,
  withStackEnvironment,
} from '@bench/core';
import { makeStackDir, startStack } from '../support/stack.js';
import { servesMany } from '../support/serves-many.js';
import { folderOf, NOT_A_FOLDER } from '../support/folder.js';
import { NODE_SERVER_ENV, READY_LINE, type NodeServerConfig } from './server-config.js';

const serverEntry = packageFile(import.meta.url, 'dist', 'node', 'server.js');
const require = createRequire(import.meta.url);

export const DEFAULT_POOL_SIZE = 10;

/**
 * The Node handler of a scenario: compiled (<scenarios>/dist/<name>/node.js, as the built-in
 * scenarios ship), or beside the manifest as JavaScript or TypeScript (loaded without a build step).
 */
export function nodeHandlerPath(scenario: Scenario): string | undefined {
  const dir = scenario.folder?.dir;
  if (!dir) return undefined;
  const candidates = [
    path.join(dir, '..', 'dist', scenario.name, 'node.js'),
    ...['node.js', 'node.mjs', 'node.ts', 'node.mts'].map((file) => path.join(dir, file)),
  ];
  return candidates.find((file) => existsSync(file));
}

// Node's own default backlog is 511: below the planned concurrency, connections wait for SYN retries
// and time out; the kernel caps the figure at net.core.somaxconn.
export function listenBacklog(maxConcurrency: number | undefined): number {
  return Math.max(511, maxConcurrency ?? 0);
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
    processNames: [serverEntry],
    // Fastify on node:https and node:http2 (single and cluster alike)
    protocols: ['http1', 'https', 'h2', 'h2c'],
    supports(scenario) {
      if (!scenario.folder) return NOT_A_FOLDER;
      if (!nodeHandlerPath(scenario)) return { ok: false, reason: 'the scenario has no Node handler (node.ts); run `npm run build`' };
      return { ok: true };
    },
    async available(): Promise<Availability> {
      return { ok: true, versions: { node: process.versions.node, fastify: fastifyVersion() } };
    },
    ...servesMany(async (scenarios, options) => {
      const host = listenHost(options);
      const port = await choosePort(options.port, host);
      const workers = variant.cluster ? (options.workers ?? os.availableParallelism()) : 0;
      const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
      const config: NodeServerConfig = {
        scenarios: scenarios.map((scenario) => ({
          dir: folderOf(scenario).dir,
          handler: nodeHandlerPath(scenario) ?? '',
          ...(scenario.mount !== undefined ? { mount: scenario.mount } : {}),
        })),
        host,
        port,
        workers,
        pool: { enabled: variant.pool, size: poolSize },
        services: options.services,
        backlog: listenBacklog(options.maxConcurrency),
        protocol: options.protocol ?? 'http1',
        ...(options.tls ? { tls: { certFile: options.tls.certFile, keyFile: options.tls.keyFile } } : {}),
      };
      const settings: Record<string, string | number | boolean> = {
        node: process.versions.node,
        fastify: fastifyVersion(),
        processes: variant.cluster ? workers : 1,
        backlog: config.backlog,
        ...(config.protocol !== 'http1' ? { protocol: config.protocol } : {}),
      };
      if (variant.pool) settings.poolSize = poolSize;
      return startStack({
        target: variant.name,
        scenarios,
        host,
        port,
        dir: makeStackDir(variant.name),
        processes: [
          {
            name: variant.name,
            command: process.execPath,
            args: [serverEntry],
            env: withStackEnvironment({ ...process.env, [NODE_SERVER_ENV]: JSON.stringify(config) }, options.env),
            readyLine: new RegExp(READY_LINE),
          },
        ],
        settings,
        ...(options.protocol ? { protocol: options.protocol } : {}),
        ...(options.tls ? { tls: options.tls } : {}),
      });
    }),
  };
}
