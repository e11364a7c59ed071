import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { memcachedBackend } from '../lib/backends.js';

export default async function memcacheGet(app: FastifyInstance, context: NodeScenarioContext): Promise<void> {
  const memcached = await memcachedBackend(context);
  app.addHook('onClose', () => memcached.close());
  app.get(context.scenario.request.path, async (_request, reply) => {
    const { value } = await memcached.use((client) => client.get('test'));
    reply.type('text/plain; charset=utf-8').send(value ?? Buffer.alloc(0));
  });
}
