import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { routeOf } from '@bench/core/scenario-serving';
import { sqlBackend } from '../lib/sql.js';
import { randomWorldId, sendJson, worldRow } from '../lib/tfb.js';

// TFB's single query: one World row by a random id
export default async function tfbDb(app: FastifyInstance, context: NodeScenarioContext): Promise<void> {
  const backend = await sqlBackend(context);
  app.addHook('onClose', () => backend.close());
  app.get(routeOf(context.scenario), async (_request, reply) => {
    sendJson(reply, await backend.use((sql) => worldRow(sql, randomWorldId())));
  });
}
