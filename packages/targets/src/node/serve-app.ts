// One Fastify app serving every scenario of the stack: the Node targets' server process, or one worker of its cluster.
// Loaded by server.ts only where an app runs, so a cluster's primary never loads Fastify or bench's core.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import fastify, { type FastifyInstance } from 'fastify';
import { errors, loadScenario, mountScenario, type NodeScenarioModule } from '@bench/core/scenario-serving';
import { folderOf } from '../support/folder.js';
import type { NodeServerConfig } from './server-config.js';

// A handler written in TypeScript beside its manifest loads through jiti, without a build step; jiti is loaded only
// then (the built-in scenarios' handlers are compiled JavaScript).
async function loadHandler(file: string): Promise<NodeScenarioModule<FastifyInstance>> {
  const typescript = /\.m?ts$/.test(file);
  const module = (
    typescript ? await (await import('jiti')).createJiti(import.meta.url).import(file) : await import(pathToFileURL(file).href)
  ) as {
    default?: NodeScenarioModule<FastifyInstance>;
  };
  if (typeof module.default !== 'function')
    throw errors.scenarioInvalid(file, 'its default export must be a function (app, context) => void');
  return module.default;
}

// Fastify's own servers for each protocol: node:https, node:http2's secure server (h2 only, by ALPN) or its cleartext one.
function createApp(config: NodeServerConfig): FastifyInstance {
  const tls = config.tls ? { key: readFileSync(config.tls.keyFile), cert: readFileSync(config.tls.certFile) } : undefined;
  switch (config.protocol) {
    case 'https':
      return fastify({ logger: false, https: tls ?? null });
    case 'h2':
      return fastify({ logger: false, http2: true, https: { ...tls, allowHTTP1: false } }) as unknown as FastifyInstance;
    case 'h2c':
      return fastify({ logger: false, http2: true }) as unknown as FastifyInstance;
    default:
      return fastify({ logger: false });
  }
}

/** Starts the app and listens; resolves once it does. */
export async function serveOneProcess(config: NodeServerConfig): Promise<void> {
  const app = createApp(config);
  for (const served of config.scenarios) {
    const loaded = loadScenario(served.dir);
    const scenario = served.mount !== undefined ? mountScenario(loaded, served.mount) : loaded;
    const handler = await loadHandler(served.handler);
    // each scenario in a Fastify context of its own: its plugins, decorators and hooks never meet another's
    await app.register(async (scoped) =>
      handler(scoped, { scenario, folder: folderOf(scenario), services: config.services, pool: config.pool }),
    );
  }
  await app.listen({ host: config.host, port: config.port, backlog: config.backlog });
}
