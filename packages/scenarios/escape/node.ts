import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { escapeBody } from '../lib/bodies.js';

export default function escape(app: FastifyInstance, context: NodeScenarioContext): void {
  app.get(context.scenario.request.path, (_request, reply) => {
    reply.type('text/html; charset=utf-8').send(escapeBody());
  });
}
