import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { mysqlBackend } from '../lib/backends.js';
import { twoSelects } from '../lib/db-queries.js';

const MAX_AGE_SECONDS = 15;

// As db, but the answer says it may be cached for 15 s; plain Fastify has no output cache, so every request still queries.
export default async function cache(app: FastifyInstance, context: NodeScenarioContext): Promise<void> {
  const backend = await mysqlBackend(context);
  app.addHook('onClose', () => backend.close());
  app.get(context.scenario.request.path, async (_request, reply) => {
    const body = await backend.use(twoSelects);
    reply
      .type('text/plain; charset=utf-8')
      .header('expires', new Date(Date.now() + MAX_AGE_SECONDS * 1000).toUTCString())
      .header('cache-control', `max-age=${MAX_AGE_SECONDS}`)
      .send(body);
  });
}
