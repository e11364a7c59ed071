import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { routeOf } from '@bench/core/scenario-serving';
import { sqlBackend } from '../lib/sql.js';
import { rowsAsked, sendJson, worldRows } from '../lib/tfb.js';

// TFB's multiple queries: N World rows, one query each
export default async function tfbQueries(app: FastifyInstance, context: NodeScenarioContext): Promise<void> {
  const backend = await sqlBackend(context);
  app.addHook('onClose', () => backend.close());
  app.get(routeOf(context.scenario), async (request, reply) => {
    const n = rowsAsked(request, 'queries');
    sendJson(reply, await backend.use((sql) => worldRows(sql, n)));
  });
}
