import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { mysqlBackend } from '../lib/backends.js';
import { twoSelects } from '../lib/db-queries.js';

export default async function db(app: FastifyInstance, context: NodeScenarioContext): Promise<void> {
  const backend = await mysqlBackend(context);
  app.addHook('onClose', () => backend.close());
  app.get(context.scenario.request.path, async (_request, reply) => {
    reply.type('text/plain; charset=utf-8').send(await backend.use(twoSelects));
  });
}
