import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { routeOf } from '@bench/core/scenario-serving';
import { mysqlBackend } from '../lib/backends.js';
import { fortunesPage, SERVER } from '../lib/tfb.js';

// TFB's fortunes: every row, one added, sorted, escaped into the table
export default async function tfbFortunes(app: FastifyInstance, context: NodeScenarioContext): Promise<void> {
  const backend = await mysqlBackend(context);
  app.addHook('onClose', () => backend.close());
  app.get(routeOf(context.scenario), async (_request, reply) => {
    const [rows] = await backend.use((connection) => connection.execute('SELECT id, message FROM Fortune'));
    const fortunes = [...(rows as Array<{ id: number; message: string }>), { id: 0, message: 'Additional fortune added at request time.' }];
    reply.header('server', SERVER).type('text/html; charset=utf-8').send(fortunesPage(fortunes));
  });
}
