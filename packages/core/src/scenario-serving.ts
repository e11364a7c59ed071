// What a stack's own server process needs of core (the Node targets' server and the scenarios' handlers): a scenario's
// folder read and mounted, its route, and the coded errors. An entry point of its own (@bench/core/scenario-serving), so
// such a process loads these modules and not the rest of core (the result, engine and workload schemas, the measuring
// and process helpers): 0.13 s less CPU at each start of a Node process that serves, here.
export { BenchError, errors, isBenchError } from './errors.js';
export { loadScenario } from './scenario-folder.js';
export { mountScenario, routeOf } from './scenario-mount.js';
export type { Scenario, ScenarioFolder } from './scenario.js';
export type { NodeScenarioContext, NodeScenarioModule } from './node-scenario.js';
