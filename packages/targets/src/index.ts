import type { TargetPlugin } from '@bench/core';
import { createNodeTarget } from './node/node-target.js';
import { phpTargets } from './php/index.js';
import { perlTargets } from './perl/index.js';
import { javaTargets } from './java/index.js';
import { nginxStaticTarget } from './nginx-static.js';
import { apacheSsiTarget } from './ssi/apache-ssi.js';

export { createNodeTarget, nodeHandlerPath, DEFAULT_POOL_SIZE } from './node/node-target.js';
export { startStack, makeStackDir, type StackProcessSpec, type StartStackOptions } from './support/stack.js';
export { phpTargets } from './php/index.js';
export { perlTargets } from './perl/index.js';
export { javaTargets } from './java/index.js';
export { nginxStaticTarget } from './nginx-static.js';
export { apacheSsiTarget } from './ssi/apache-ssi.js';
export { commandTarget, type CommandTargetSpec } from './app/command-target.js';
export { urlTarget, type UrlTargetSpec } from './app/url-target.js';

/** Every target bench ships, in the order reports list them. */
export const builtinTargets: readonly TargetPlugin[] = [
  createNodeTarget({ name: 'node', cluster: false, pool: false, description: 'Fastify, one process' }),
  createNodeTarget({
    name: 'node-pool',
    cluster: false,
    pool: true,
    description: 'Fastify, one process, generic-pool for backend clients',
  }),
  createNodeTarget({ name: 'node-cluster', cluster: true, pool: false, description: 'Fastify under node:cluster, one worker per core' }),
  createNodeTarget({ name: 'node-cluster-pool', cluster: true, pool: true, description: 'node:cluster workers, each with a generic-pool' }),
  ...phpTargets,
  ...perlTargets,
  ...javaTargets,
  apacheSsiTarget,
  nginxStaticTarget,
];
