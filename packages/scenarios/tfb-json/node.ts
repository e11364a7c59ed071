import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { routeOf } from '@bench/core/scenario-serving';
import { sendJson } from '../lib/tfb.js';

// TFB's json: the object serialised on every request
export default function tfbJson(app: FastifyInstance, context: NodeScenarioContext): void {
  app.get(routeOf(context.scenario), (_request, reply) => sendJson(reply, { message: 'Hello, World!' }));
}
