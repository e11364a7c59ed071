import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { routeOf } from '@bench/core/scenario-serving';
import { sqlBackend } from '../lib/sql.js';
import { fortuneRows, fortunesPage, SERVER } from '../lib/tfb.js';

// TFB's fortunes: every row, one added, sorted, escaped into the table
export default async function tfbFortunes(app: FastifyInstance, context: NodeScenarioContext): Promise<void> {
  const backend = await sqlBackend(context);
  app.addHook('onClose', () => backend.close());
  app.get(routeOf(context.scenario), async (_request, reply) => {
    const fortunes = [...(await backend.use(fortuneRows)), { id: 0, message: 'Additional fortune added at request time.' }];
    reply.header('server', SERVER).type('text/html; charset=utf-8').send(fortunesPage(fortunes));
  });
}
