// Programmatic API: what the CLI does, without the terminal.
export { runBench, newRunDocument, type RunContext, type RunEvent } from './run.js';
export { DEFAULTS, validateRunOptions, type RunOptions } from './options.js';
export { makePlan, resolveScenarios, resolveTargets, type Plan } from './plan.js';
export { verifyTarget, checkAnswer, type Verification } from './verify.js';
export { runLoad, type LoadOptions, type LoadMeasurement } from './load/run-load.js';
export { noServices, type ServiceManager, type CounterReading } from './services.js';
export { createServiceManager } from './services/service-manager.js';
export { TOOL_VERSION } from './version.js';
