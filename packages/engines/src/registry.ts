import { errors, type LoadEngine, type OptionTable } from '@bench/core';
import { autocannonEngine } from './autocannon/autocannon-engine.js';
import { wrkEngine } from './wrk/wrk-engine.js';
import { abEngine } from './ab/ab-engine.js';
import { openLoopEngine } from './open-loop/open-loop-engine.js';
import { k6Engine } from './k6/k6-engine.js';
import { wireEngine } from './wire/wire-engine.js';
import { h2loadEngine } from './h2load/h2load-engine.js';

// One line per engine: an engine is its folder and this line.
// wire before the open loop: --rate chooses the first of them that can drive the run
const engines = [autocannonEngine, wrkEngine, abEngine, wireEngine, openLoopEngine, k6Engine, h2loadEngine] as const;

/** Every load engine bench ships, by name. */
export const builtinEngines: readonly LoadEngine[] = engines;

/** The engine a run uses when it names none, asks for nothing only another engine does, and gives no engine's own option. */
export const defaultEngine: LoadEngine = autocannonEngine;

type OptionsOf<E> = E extends { readonly options: infer O } ? O : Record<never, never>;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The options the built-in engines declare, all in one table: `bench run`'s option table includes them, typed. */
export type BuiltinEngineOptions = Intersection<OptionsOf<(typeof engines)[number]>>;

/** The options these engines declare, merged; a name two of them declare is refused. */
export function engineOptionTable(list: readonly LoadEngine[]): OptionTable {
  const table: Record<string, OptionTable[string]> = {};
  const owner = new Map<string, string>();
  for (const engine of list)
    for (const [key, declaration] of Object.entries(engine.options ?? {})) {
      const taken = owner.get(key);
      if (taken !== undefined) throw errors.engineLoad(engine.name, `its option "${key}" is engine ${taken}'s already; name it otherwise`);
      owner.set(key, engine.name);
      table[key] = declaration;
    }
  return table;
}

export const builtinEngineOptions = engineOptionTable(builtinEngines) as unknown as BuiltinEngineOptions;

export function findEngine(name: string, list: readonly LoadEngine[] = builtinEngines): LoadEngine {
  const engine = list.find((e) => e.name === name);
  if (!engine)
    throw errors.unknownEngine(
      name,
      list.map((e) => e.name),
    );
  return engine;
}
