import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { loopBody } from '../lib/bodies.js';

export default function loop(app: FastifyInstance, context: NodeScenarioContext): void {
  app.get(context.scenario.request.path, (_request, reply) => {
    reply.type('text/plain; charset=utf-8').send(loopBody());
  });
}
