import { errors, type LoadEngine } from '@bench/core';
import { autocannonEngine } from './autocannon/autocannon-engine.js';

/** Every load engine bench ships, by name. */
export const builtinEngines: readonly LoadEngine[] = [autocannonEngine];

export function findEngine(name: string, engines: readonly LoadEngine[] = builtinEngines): LoadEngine {
  const engine = engines.find((e) => e.name === name);
  if (!engine) throw errors.unknownEngine(name, engines.map((e) => e.name));
  return engine;
}
