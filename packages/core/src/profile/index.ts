export * from './folded-stacks.js';
export * from './function-costs.js';
export * from './profile-schema.js';
export * from './process-profiler.js';
export * from './profile-stack.js';
export { v8ProfilingEnvironment, foldV8Profile } from './v8-profiler.js';
export { foldJfrSamples } from './jfr-profiler.js';
export { foldPerfScript } from './perf-profiler.js';
export * from './profile-changes.js';
