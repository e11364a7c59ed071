import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { routeOf } from '@bench/core/scenario-serving';
import { sqlBackend } from '../lib/sql.js';
import { randomNumber, rowsAsked, sendJson, worldRows, writeWorldRows } from '../lib/tfb.js';

// TFB's updates: N World rows read one query each, given new numbers, written back one UPDATE a row in a transaction
export default async function tfbUpdates(app: FastifyInstance, context: NodeScenarioContext): Promise<void> {
  const backend = await sqlBackend(context);
  app.addHook('onClose', () => backend.close());
  app.get(routeOf(context.scenario), async (request, reply) => {
    const n = rowsAsked(request, 'queries');
    const rows = await backend.use(async (sql) => {
      const read = await worldRows(sql, n);
      for (const row of read) row.randomNumber = randomNumber();
      await writeWorldRows(sql, read);
      return read;
    });
    sendJson(reply, rows);
  });
}
