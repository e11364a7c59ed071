import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { NodeScenarioContext } from '@bench/core';

// The block is read once at start-up and sent from memory, as a script holding a static block would.
export default async function big(app: FastifyInstance, context: NodeScenarioContext): Promise<void> {
  const block = await readFile(path.join(context.folder.fixturesDir, 'block.txt'));
  app.get(context.scenario.request.path, (_request, reply) => {
    reply.type('text/plain; charset=utf-8').send(block);
  });
}
