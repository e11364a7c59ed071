import type { LoadEngine, Scenario, ServerHabit } from '@bench/core';
import { defaultEngine } from '@bench/engines';
import type { RunOptions } from '../options/declarations.js';
import { engineRefusal } from '../engine-choice/choose-engine.js';

/** How a cell's note names each habit: "this server sends ...". */
const HABITS: Record<ServerHabit, string> = {
  'interim answers': 'interim answers (1xx) before its answers',
  'a body ended by the close': 'bodies that end with the connection',
  'a repeated Content-Length': 'a Content-Length said twice or as a list',
  'no body after a length': 'a length on answers that carry no body',
  'answers to no request': 'answers to no request (a second answer, or a flood of them)',
};

/** The engine that counts every habit as the server sent it, which drives a server the default engine would miscount. */
const FAITHFUL = 'wire';

export interface EngineChoice {
  readonly engine: LoadEngine;
  readonly version: string;
  readonly because?: string;
}

/**
 * The engine for one stack's cells once verification saw its server's habits: the run's engine, unless it counts one of
 * them wrongly. Then, when nothing chose that engine (it is the default), wire drives the cells and the cells say why;
 * when the user or an option chose it, `refused` says why its counts could not be the server's, and the cells fail.
 */
export async function engineForServer(
  chosen: EngineChoice,
  habits: readonly ServerHabit[],
  options: RunOptions,
  scenario: Scenario,
  engines: readonly LoadEngine[],
): Promise<EngineChoice | { readonly refused: string }> {
  const habit = habits.find((h) => chosen.engine.miscounts?.[h] !== undefined);
  if (habit === undefined) return chosen;
  const wrong = `this server sends ${HABITS[habit]}, and ${chosen.engine.name} ${chosen.engine.miscounts![habit]}`;
  const faithful = engines.find((e) => e.name === FAITHFUL && !habits.some((h) => e.miscounts?.[h] !== undefined));
  const levels = [Math.min(...options.concurrency), Math.max(...options.concurrency)];
  const refusal = faithful ? engineRefusal(faithful, options, scenario, levels, engines) : `no ${FAITHFUL} engine in this run`;
  const available = faithful && refusal === undefined ? await faithful.available() : undefined;
  const chosenByNothing = options.engine === undefined && chosen.engine === defaultEngine && chosen.because === undefined;
  if (chosenByNothing && faithful && available?.ok)
    return {
      engine: faithful,
      version: available.version ?? 'unknown',
      because: `${wrong}: ${FAITHFUL} drives these cells, counting them as sent`,
    };
  const instead = refusal ?? (available && !available.ok ? available.reason : undefined);
  return {
    refused: `${wrong}: its counts could not be the server's; ${instead === undefined ? `run it with --engine ${FAITHFUL}, which counts them as sent` : `and ${FAITHFUL} cannot drive it (${instead})`}`,
  };
}
