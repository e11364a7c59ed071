import {
  choosers,
  errors,
  longFlag,
  protocolsOf,
  protocolWords,
  speaksProtocol,
  workloadRefusal,
  workloadSteps,
  type LoadEngine,
  type OptionTable,
  type Scenario,
  SECRET_HEADERS,
} from '@bench/core';
import { builtinEngines, findEngine } from '@bench/engines';
import { runOptionDeclarations, type RunOptions, highestConcurrency } from '../options/declarations.js';
import { candidateEngineNames, chosenEngineName, ownOptionValues, refuseOtherEnginesOptions } from './engine-candidates.js';
import { loadShape } from '../options/load-shape.js';

/** The engine a run uses when none is named: the one its options ask for (k6 for --generators, wire for --rate or -p), else the default. */
export const defaultEngineName = (options: Readonly<Record<string, unknown>>, engines: readonly LoadEngine[] = builtinEngines): string =>
  chosenEngineName(options, engines);

/** The name of a secret header the scenario sends (its request's or a workload step's), or undefined. */
function secretHeaderOf(scenario: Scenario, options: RunOptions): string | undefined {
  const secret = new Set([...SECRET_HEADERS, ...(options.redact ?? [])].map((name) => name.toLowerCase()));
  const requests = [scenario.request, ...(scenario.workload ? workloadSteps(scenario.workload) : [])];
  return requests.flatMap((request) => Object.keys(request.headers)).find((name) => secret.has(name.toLowerCase()));
}

/** Why an engine cannot drive this run whatever its scenarios (client threads, protocol), or undefined. */
function runRefusal(engine: LoadEngine, options: RunOptions, engines: readonly LoadEngine[]): string | undefined {
  if ((options.clientThreads ?? 1) > 1 && !engine.clientThreads)
    return `--client-threads spreads the connections of the in-process engines (${engines
      .filter((e) => e.clientThreads)
      .map((e) => e.name)
      .join(', ')}); drop it for this engine`;
  if ((options.pipelining ?? 1) > 1 && !engine.pipelines)
    return `-p pipelines requests, which ${engine.name} does not: use --engine ${engines
      .filter((e) => e.pipelines)
      .map((e) => e.name)
      .join(' or ')}`;
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
  const secret = engine.headersOnCommandLine ? secretHeaderOf(scenario, options) : undefined;
  if (secret !== undefined)
    return `scenario "${scenario.name}" sends ${secret}, a secret header, and ${engine.name} takes headers on its command line, where any user of this machine can read them: use --engine ${engines
      .filter((e) => !e.headersOnCommandLine && e.name !== engine.name)
      .map((e) => e.name)
      .slice(0, 3)
      .join(', ')}, which carry it in their own memory or a private file`;
  const workload = scenario.workload;
  if (workload && (options.pipelining ?? 1) > 1)
    return `-p pipelines one fixed request; scenario "${scenario.name}" sends a workload: drop -p for it`;
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

/** One engine checked for this run before anything starts: installed, given no option of another engine's, and able to drive every scenario at every level of -c. */
async function checkEngine(
  engine: LoadEngine,
  options: RunOptions,
  engines: readonly LoadEngine[],
  scenarios: readonly Scenario[],
  table: OptionTable,
): Promise<string> {
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
  return availability.version ?? 'unknown';
}

/**
 * The engine the run uses, checked before anything starts: the one the options name, or the first of the candidates an
 * option chooses that can drive this run (--rate: wire, else the open loop), with why when it was not the first.
 */
export async function chooseEngine(
  options: RunOptions,
  engines: readonly LoadEngine[],
  scenarios: readonly Scenario[],
  table: OptionTable = runOptionDeclarations,
): Promise<{ engine: LoadEngine; version: string; because?: string }> {
  const candidates = candidateEngineNames(options, engines).map((name) => findEngine(name, engines));
  const passedOver: string[] = [];
  for (const [i, engine] of candidates.entries()) {
    try {
      const version = await checkEngine(engine, options, engines, scenarios, table);
      const key = choosers(engine).find((k) => options[k as keyof RunOptions] !== undefined);
      const chooser = key !== undefined ? longFlag(table[key]?.flags ?? `--${key}`) : undefined;
      if (candidates.length === 1 || chooser === undefined) return { engine, version };
      const because =
        passedOver.length === 0
          ? `${chooser} runs on ${engine.name}, the first of ${candidates.map((c) => c.name).join(', ')} that can drive this run`
          : `${chooser} runs on ${engine.name}: ${passedOver.join('; ')}`;
      return { engine, version, because };
    } catch (error) {
      if (i === candidates.length - 1 || !(error instanceof Error)) throw error;
      passedOver.push(`${engine.name} cannot (${error.message.replace(/^engine "[^"]+" (cannot do this|is not available): /, '')})`);
    }
  }
  throw errors.nothingToRun('no engine can drive this run');
}
