import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { NodeScenarioContext } from '@bench/core';
import { errors } from '@bench/core/scenario-serving';

/** Serves the scenario's static file through @fastify/static, Node's static-file path. */
export async function registerStaticFile(app: FastifyInstance, context: NodeScenarioContext): Promise<void> {
  const file = context.folder.staticFile;
  if (!file) throw errors.scenarioInvalid(`of ${context.scenario.name}`, 'it names no staticFile, which this handler serves');
  const absolute = path.join(context.folder.dir, file);
  await app.register(fastifyStatic, { root: path.dirname(absolute), serve: false });
  // the same Content-Type every stack sends for this file (the manifest's pattern)
  const type = path.extname(absolute) === '.html' ? 'text/html; charset=utf-8' : 'application/octet-stream';
  app.get(context.scenario.request.path, (_request, reply) => reply.type(type).sendFile(path.basename(absolute)));
}
