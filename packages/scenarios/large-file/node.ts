import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { registerStaticFile } from '../lib/static-route.js';

export default (app: FastifyInstance, context: NodeScenarioContext) => registerStaticFile(app, context);
