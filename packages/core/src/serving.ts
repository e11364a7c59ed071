// What a target's server process needs of core, and no more: the whole barrel costs a server 0.2 s of CPU to import
// (histograms, schemas, profiles), which every Node target, and every worker of a cluster, paid at each start.
export { errors } from './errors.js';
export { loadScenario } from './scenario-folder.js';
export { mountScenario } from './scenario-mount.js';
export type { NodeScenarioModule } from './node-scenario.js';
