import os from 'node:os';
import { describeMachine, errors, parseNameList } from '@bench/core';
import { builtinTargets } from '@bench/targets';
import { builtinEngines, saveCeilings } from '@bench/engines';
import { builtinScenarios } from '../project/builtin-scenarios.js';
import { renderSelfbench } from '@bench/reporters';
import { defaultSelfbenchEngines, selfbench } from '../selfbench/selfbench.js';

/** Its flags as commander gives them (options/command-table.ts: selfbench). */
export interface SelfbenchFlags {
  concurrency: number[];
  duration: number;
  rounds: number;
  engines?: string;
  cpus?: { server?: string; client?: string };
  rate?: number[];
  clientThreads?: number[];
}

/** `bench selfbench`: what bench costs over each bare tool, and each engine's ceiling here. */
export async function selfbenchCommand(flags: SelfbenchFlags): Promise<void> {
  const scenarios = builtinScenarios();
  const pick = (target: string, scenario: string) =>
    [builtinTargets.find((t) => t.name === target), scenarios.find((s) => s.name === scenario)] as const;
  const cases = [pick('nginx-static', 'file'), pick('node', 'hello')].filter(
    (c): c is [NonNullable<(typeof c)[0]>, NonNullable<(typeof c)[1]>] => Boolean(c[0] && c[1]),
  );
  // `all`: every engine bench has that can run here; one that cannot is skipped with a line, where a named one fails
  const all = flags.engines === 'all';
  const names = all
    ? builtinEngines.map((e) => e.name)
    : flags.engines
      ? parseNameList([flags.engines])
      : defaultSelfbenchEngines().map((e) => e.name);
  const engines = [];
  for (const name of names) {
    const engine = builtinEngines.find((e) => e.name === name);
    if (!engine)
      throw errors.unknownEngine(
        name,
        builtinEngines.map((e) => e.name),
      );
    const a = await engine.available();
    if (!a.ok && all) process.stderr.write(`bench: selfbench skips ${name}: ${a.reason ?? 'not available'}\n`);
    else if (!a.ok) throw errors.engineUnavailable(name, a.reason ?? 'unknown reason');
    else engines.push(engine);
  }
  // pinned by default when there are two cores or more: the server on CPU 0, the generator on CPU 1
  const cpus = flags.cpus ?? (os.availableParallelism() >= 2 ? { server: '0', client: '1' } : undefined);
  const rows = await selfbench({
    connections: flags.concurrency,
    seconds: flags.duration,
    rounds: flags.rounds,
    ...(cpus ? { cpus } : {}),
    cases,
    engines,
    ...(flags.rate !== undefined ? { rates: flags.rate } : {}),
    ...(flags.clientThreads ? { threads: flags.clientThreads } : {}),
    onProgress: (line) => process.stderr.write(`bench: selfbench ${line}\n`),
  });
  const setting = `-c ${flags.concurrency.join(',')}, ${flags.duration} s a run, ${flags.rounds} rounds${cpus ? `, server on CPU ${cpus.server ?? 'any'} and generator on CPU ${cpus.client ?? 'any'}` : ', unpinned'}`;
  process.stdout.write(renderSelfbench(rows, setting, describeMachine()));
  // bench list and bench doctor quote each engine's ceiling from the last selfbench on this machine
  const saved = saveCeilings(rows, setting);
  if (saved) process.stderr.write(`bench: selfbench saved each engine's ceiling in ${saved}\n`);
}
