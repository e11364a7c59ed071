import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { routeOf } from '@bench/core/scenario-serving';
import { mysqlBackend } from '../lib/backends.js';
import { randomWorldId, sendJson, worldRow } from '../lib/tfb.js';

// TFB's single query: one World row by a random id
export default async function tfbDb(app: FastifyInstance, context: NodeScenarioContext): Promise<void> {
  const backend = await mysqlBackend(context);
  app.addHook('onClose', () => backend.close());
  app.get(routeOf(context.scenario), async (_request, reply) => {
    sendJson(reply, await backend.use((connection) => worldRow(connection, randomWorldId())));
  });
}
