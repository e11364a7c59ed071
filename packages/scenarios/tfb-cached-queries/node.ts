import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { routeOf } from '@bench/core/scenario-serving';
import { sqlBackend } from '../lib/sql.js';
import { randomWorldId, rowsAsked, sendJson, worldTable, type World } from '../lib/tfb.js';

// TFB's cached queries: N random World rows from a cache in the process, filled from World at start-up
export default async function tfbCachedQueries(app: FastifyInstance, context: NodeScenarioContext): Promise<void> {
  const backend = await sqlBackend(context);
  const cache = new Map<number, World>();
  for (const row of await backend.use(worldTable)) cache.set(row.id, row);
  await backend.close();
  app.get(routeOf(context.scenario), (request, reply) => {
    const n = rowsAsked(request, 'count');
    sendJson(
      reply,
      Array.from({ length: n }, () => cache.get(randomWorldId())),
    );
  });
}
