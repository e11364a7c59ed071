// bench's load engines: the registry, and the parts engines of a project's own can build on.
export {
  builtinEngines,
  builtinEngineOptions,
  defaultEngine,
  engineOptionTable,
  findEngine,
  type BuiltinEngineOptions,
} from './registry.js';
export { engineBinary } from './engine-binary.js';
export { runExternal } from './external-process.js';
export { runBareTool, type BareResult } from './bare-tool.js';
export {
  ceilingLine,
  ceilingsOf,
  cheaperEngineLine,
  costsOf,
  readCeilings,
  saveCeilings,
  type EngineCeiling,
  type EngineCost,
  type SavedCeilings,
} from './ceilings.js';
