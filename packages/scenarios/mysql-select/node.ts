import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { mysqlBackend } from '../lib/backends.js';
import { selectAll } from '../lib/db-queries.js';

export default async function mysqlSelect(app: FastifyInstance, context: NodeScenarioContext): Promise<void> {
  const db = await mysqlBackend(context);
  app.addHook('onClose', () => db.close());
  app.get(context.scenario.request.path, async (_request, reply) => {
    reply.type('text/plain; charset=utf-8').send(await db.use(selectAll));
  });
}
