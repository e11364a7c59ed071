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
  if ((options.clientThreads ?? 1) > 1 && !engine.clientThreads)
    throw errors.engineUnsupported(
      engine.name,
      `--client-threads spreads the connections of the in-process engines (${engines
        .filter((e) => e.clientThreads)
        .map((e) => e.name)
        .join(', ')}); drop it for this engine`,
    );
  const protocol = options.protocol;
  if (!speaksProtocol(engine, protocol)) {
    const able = engines.filter((e) => speaksProtocol(e, protocol)).map((e) => e.name);
    throw errors.engineUnsupported(
      engine.name,
      `--protocol ${protocol} (${protocolWords[protocol]}): ${engine.name} speaks ${protocolsOf(engine).join(', ')}; ${able.length > 0 ? `use --engine ${able.join(' or ')}` : 'no engine here speaks it'}`,
    );
  }
  const availability = await engine.available();
  if (!availability.ok) throw errors.engineUnavailable(engine.name, availability.reason ?? 'unknown reason');
  const own = ownOptionValues(engine, options);
  const bound = options.requests !== undefined ? { requests: options.requests } : { durationSeconds: options.durationSeconds ?? 1 };
  for (const scenario of scenarios) {
    if (scenario.workload) {
      const workload = scenario.workload;
      const able = engines.filter((e) => workloadRefusal(e, workload, scenario.name, []) === undefined).map((e) => e.name);
      const refusal = workloadRefusal(engine, workload, scenario.name, able);
      if (refusal) throw errors.engineUnsupported(engine.name, refusal);
    }
    for (const connections of new Set([Math.min(...options.concurrency), highestConcurrency(options)])) {
      const support = engine.supports(loadShape(options, connections, bound), scenario.request, scenario.expect.body, own);
      if (!support.ok) throw errors.engineUnsupported(engine.name, support.reason);
    }
  }
  return { engine, version: availability.version ?? 'unknown' };
}
