import { errors, type LoadEngine } from '@bench/core';
import { autocannonEngine } from './autocannon/autocannon-engine.js';
import { wrkEngine } from './wrk/wrk-engine.js';
import { abEngine } from './ab/ab-engine.js';
import { openLoopEngine } from './open-loop/open-loop-engine.js';
import { k6Engine } from './k6/k6-engine.js';

/** Every load engine bench ships, by name. */
export const builtinEngines: readonly LoadEngine[] = [autocannonEngine, wrkEngine, abEngine, openLoopEngine, k6Engine];

export function findEngine(name: string, engines: readonly LoadEngine[] = builtinEngines): LoadEngine {
  const engine = engines.find((e) => e.name === name);
  if (!engine)
    throw errors.unknownEngine(
      name,
      engines.map((e) => e.name),
    );
  return engine;
}
