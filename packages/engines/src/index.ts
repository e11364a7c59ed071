// bench's load engines: the registry, and the parts of each engine other packages build on.
export { builtinEngines, findEngine } from './registry.js';
export { engineBinary } from './engine-binary.js';
export { runExternal } from './external-process.js';
// k6's script, flags, binary and samples, which `bench export k6` and `bench import` reuse.
export { K6_VERSION } from './k6/k6-binary.js';
export { k6OutputFlags, k6Measurement } from './k6/k6-engine.js';
export { k6Script } from './k6/k6-script.js';
export { executionSegments, segmentFlags } from './k6/segments.js';
export { createK6Tally, readK6Csv } from './k6/k6-samples.js';
