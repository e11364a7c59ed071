import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';
import { INCLUDE_FILES, includePage } from '../lib/bodies.js';

// The four files are read from disk on every request, as PHP's include does.
export default function include(app: FastifyInstance, context: NodeScenarioContext): void {
  const files = INCLUDE_FILES.map((name) => path.join(context.folder.fixturesDir, name));
  app.get(context.scenario.request.path, async (_request, reply) => {
    const parts = await Promise.all(files.map((file) => readFile(file, 'utf8')));
    reply.type('text/html; charset=utf-8').send(includePage(parts));
  });
}
