import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { routeOf } from '@bench/core/scenario-serving';
import { SERVER } from '../lib/tfb.js';

// TFB's plaintext
export default function tfbPlaintext(app: FastifyInstance, context: NodeScenarioContext): void {
  app.get(routeOf(context.scenario), (_request, reply) => {
    reply.header('server', SERVER).type('text/plain').send('Hello, World!');
  });
}
