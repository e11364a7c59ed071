// Entry point of the Node targets' server process: one Fastify app, or a node:cluster primary
// that forks one such app per worker. Started by node-target.ts, never by hand.
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import fastify, { type FastifyInstance } from 'fastify';
import { createJiti } from 'jiti';
import { errors, loadScenario, mountScenario, type NodeScenarioModule } from '@bench/core';
import { folderOf } from '../support/folder.js';
import { NODE_SERVER_ENV, READY_LINE, type NodeServerConfig } from './server-config.js';

const config = JSON.parse(process.env[NODE_SERVER_ENV] ?? '{}') as NodeServerConfig;

// A handler written in TypeScript beside its manifest loads through jiti, without a build step.
async function loadHandler(file: string): Promise<NodeScenarioModule<FastifyInstance>> {
  const module = (/\.m?ts$/.test(file) ? await createJiti(import.meta.url).import(file) : await import(pathToFileURL(file).href)) as {
    default?: NodeScenarioModule<FastifyInstance>;
  };
  if (typeof module.default !== 'function')
    throw errors.scenarioInvalid(file, 'its default export must be a function (app, context) => void');
  return module.default;
}

// Fastify's own servers for each protocol: node:https, node:http2's secure server (h2 only, by ALPN) or its cleartext one.
function createApp(): FastifyInstance {
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

async function serveOneProcess(): Promise<void> {
  const app = createApp();
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

function runPrimary(): void {
  let listening = 0;
  for (let i = 0; i < config.workers; i++) cluster.fork();
  cluster.on('listening', () => {
    if (++listening === config.workers) console.log(READY_LINE);
  });
  // A worker that dies is not replaced: the run must see the failure, not a silently smaller cluster.
  cluster.on('exit', (worker, code, signal) => {
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}); stopping the cluster`);
    process.exit(1);
  });
}

if (config.workers > 0 && cluster.isPrimary) {
  runPrimary();
} else {
  serveOneProcess().then(
    () => {
      if (config.workers === 0) console.log(READY_LINE);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exit(1);
    },
  );
}
