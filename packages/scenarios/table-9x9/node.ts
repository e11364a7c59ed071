import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { table9x9 } from '../lib/bodies.js';

export default function table(app: FastifyInstance, context: NodeScenarioContext): void {
  app.get(context.scenario.request.path, (_request, reply) => {
    reply.type('text/html; charset=utf-8').send(table9x9());
  });
}
