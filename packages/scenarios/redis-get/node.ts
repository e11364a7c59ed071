import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { redisBackend } from '../lib/backends.js';

export default async function redisGet(app: FastifyInstance, context: NodeScenarioContext): Promise<void> {
  const redis = await redisBackend(context);
  app.addHook('onClose', () => redis.close());
  app.get(context.scenario.request.path, async (_request, reply) => {
    reply.type('text/plain; charset=utf-8').send(await redis.use((client) => client.get('test')));
  });
}
