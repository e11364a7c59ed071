import {
  errors,
  protocolsOf,
  protocolWords,
  speaksProtocol,
  workloadRefusal,
  type LoadEngine,
  type OptionTable,
  type Scenario,
} from '@bench/core';
import { builtinEngines, findEngine } from '@bench/engines';
import { runOptionDeclarations, type RunOptions, highestConcurrency } from '../options/declarations.js';
import { chosenEngineName, ownOptionValues, refuseOtherEnginesOptions } from '../options/engine-choice.js';
import { loadShape } from './load-shape.js';

/** The engine a run uses when none is named: the one its options ask for (k6 for --generators, the open loop for --rate), else the default. */
export const defaultEngineName = (options: Readonly<Record<string, unknown>>, engines: readonly LoadEngine[] = builtinEngines): string =>
  chosenEngineName(options, engines);

/** Why an engine cannot drive this run whatever its scenarios (client threads, protocol), or undefined. */
function runRefusal(engine: LoadEngine, options: RunOptions, engines: readonly LoadEngine[]): string | undefined {
  if ((options.clientThreads ?? 1) > 1 && !engine.clientThreads)
    return `--client-threads spreads the connections of the in-process engines (${engines
      .filter((e) => e.clientThreads)
      .map((e) => e.name)
      .join(', ')}); drop it for this engine`;
  const protocol = options.protocol;
  if (!speaksProtocol(engine, protocol)) {
    const able = engines.filter((e) => speaksProtocol(e, protocol)).map((e) => e.name);
    return `--protocol ${protocol} (${protocolWords[protocol]}): ${engine.name} speaks ${protocolsOf(engine).join(', ')}; ${able.length > 0 ? `use --engine ${able.join(' or ')}` : 'no engine here speaks it'}`;
  }
  return undefined;
}

/**
 * Why an engine cannot drive a scenario at these levels of -c under these options (one line naming who can), or
 * undefined when it can: its client threads, protocol, the scenario's workload and the load's shape.
 */
export function engineRefusal(
  engine: LoadEngine,
  options: RunOptions,
  scenario: Scenario,
  levels: readonly number[],
  engines: readonly LoadEngine[] = builtinEngines,
): string | undefined {
  const refusal = runRefusal(engine, options, engines);
  if (refusal) return refusal;
  const workload = scenario.workload;
  if (workload) {
    const able = engines.filter((e) => workloadRefusal(e, workload, scenario.name, []) === undefined).map((e) => e.name);
    const lacking = workloadRefusal(engine, workload, scenario.name, able);
    if (lacking) return lacking;
  }
  const own = ownOptionValues(engine, options);
  const bound = options.requests !== undefined ? { requests: options.requests } : { durationSeconds: options.durationSeconds ?? 1 };
  for (const connections of new Set(levels)) {
    const support = engine.supports(loadShape(options, connections, bound), scenario.request, scenario.expect.body, own);
    if (!support.ok) return support.reason;
  }
  return undefined;
}

/**
 * The engine the options name, checked before anything starts: installed, given no option of another engine's, and
 * able to drive this run at every level of -c.
 */
export async function chooseEngine(
  options: RunOptions,
  engines: readonly LoadEngine[],
  scenarios: readonly Scenario[],
  table: OptionTable = runOptionDeclarations,
): Promise<{ engine: LoadEngine; version: string }> {
  const engine = findEngine(chosenEngineName(options, engines), engines);
  refuseOtherEnginesOptions(engine, options, engines, table);
  const levels = [Math.min(...options.concurrency), highestConcurrency(options)];
  const early = runRefusal(engine, options, engines);
  if (early) throw errors.engineUnsupported(engine.name, early);
  const availability = await engine.available();
  if (!availability.ok) throw errors.engineUnavailable(engine.name, availability.reason ?? 'unknown reason');
  for (const scenario of scenarios) {
    const refusal = engineRefusal(engine, options, scenario, levels, engines);
    if (refusal) throw errors.engineUnsupported(engine.name, refusal);
  }
  return { engine, version: availability.version ?? 'unknown' };
}
