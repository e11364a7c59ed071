import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { routeOf } from '@bench/core/scenario-serving';
import { mysqlBackend } from '../lib/backends.js';
import { randomWorldId, rowsAsked, sendJson, type World } from '../lib/tfb.js';

// TFB's cached queries: N random World rows from a cache in the process, filled from World at start-up
export default async function tfbCachedQueries(app: FastifyInstance, context: NodeScenarioContext): Promise<void> {
  const backend = await mysqlBackend(context);
  const cache = new Map<number, World>();
  await backend.use(async (connection) => {
    const [rows] = await connection.query('SELECT id, randomNumber FROM World');
    for (const row of rows as World[]) cache.set(row.id, { id: row.id, randomNumber: row.randomNumber });
  });
  await backend.close();
  app.get(routeOf(context.scenario), (request, reply) => {
    const n = rowsAsked(request, 'count');
    sendJson(
      reply,
      Array.from({ length: n }, () => cache.get(randomWorldId())),
    );
  });
}
