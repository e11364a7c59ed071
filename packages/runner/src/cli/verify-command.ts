import { errors, type Scenario, type TargetPlugin } from '@bench/core';
import { parseNameList } from '@bench/core';
import { loadProject } from '../project/project.js';
import { resolveScenarios, resolveTargets } from '../run/plan.js';
import { verifyTarget } from '../run/verify.js';
import { createServiceManager } from '@bench/services';
import { interruptSignal } from './interrupt.js';
import { formatTable } from './format-table.js';

type Cell = { kind: 'pass' } | { kind: 'fail'; detail: string } | { kind: 'skip'; detail: string };

const mark = (cell: Cell | undefined) => (cell?.kind === 'pass' ? 'ok' : cell?.kind === 'fail' ? 'FAIL' : '-');

async function verifyOne(target: TargetPlugin, scenario: Scenario, services: ReturnType<typeof createServiceManager>): Promise<Cell> {
  const support = target.supports(scenario);
  if (!support.ok) return { kind: 'skip', detail: support.reason };
  let running;
  try {
    running = await target.start(scenario, { services: await services.endpointsFor(scenario) });
  } catch (error) {
    return { kind: 'fail', detail: error instanceof Error ? error.message : String(error) };
  }
  try {
    const verification = await verifyTarget(running.url, scenario);
    return verification.ok ? { kind: 'pass' } : { kind: 'fail', detail: verification.problems.join('; ') };
  } finally {
    await running.stop();
  }
}

/** Starts every target for every scenario, checks the answer, prints a pass/fail matrix. */
export async function verifyCommand(scenarioNames: string[], flags: { targets?: string; config?: string; jobs?: number }): Promise<void> {
  const project = await loadProject(flags.config !== undefined ? { configFile: flags.config } : {});
  const scenarioList = scenarioNames.length ? parseNameList(scenarioNames) : project.selected.scenarios;
  const scenarios = scenarioList ? resolveScenarios(scenarioList, project.scenarios) : [...project.scenarios];
  const targetList = flags.targets !== undefined ? parseNameList([flags.targets]) : project.selected.targets;
  const explicit = targetList !== undefined;
  const targets = targetList ? resolveTargets(targetList, project.targets) : [...project.targets];
  const services = createServiceManager();
  await services.prepare(scenarios);
  const interrupt = interruptSignal();
  const results = new Map<string, Cell>();
  const notes: string[] = [];
  try {
    const pairs: Array<{ target: TargetPlugin; scenario: Scenario }> = [];
    for (const target of targets) {
      const availability = await target.available();
      if (!availability.ok) {
        if (explicit) throw errors.targetUnavailable(target.name, availability.reason ?? 'unknown reason');
        notes.push(`${target.name}: not available (${availability.reason ?? ''})`);
        continue;
      }
      for (const scenario of scenarios) pairs.push({ target, scenario });
    }
    // --jobs: that many stacks starting and answering at once (each on its own ports and private dir)
    let next = 0;
    const worker = async () => {
      for (let pair = pairs[next++]; pair; pair = pairs[next++]) {
        if (interrupt.signal.aborted) throw errors.interrupted(String(interrupt.signal.reason));
        const cell = await verifyOne(pair.target, pair.scenario, services);
        results.set(`${pair.target.name}/${pair.scenario.name}`, cell);
        process.stderr.write(`bench: verify ${pair.target.name} / ${pair.scenario.name}: ${mark(cell)}\n`);
      }
    };
    // every worker finishes (stopping its stack) before the services stop
    const ended = await Promise.allSettled(Array.from({ length: Math.max(1, flags.jobs ?? 1) }, worker));
    const thrown = ended.find((e): e is PromiseRejectedResult => e.status === 'rejected');
    if (thrown) throw thrown.reason;
    for (const { target, scenario } of pairs) {
      const cell = results.get(`${target.name}/${scenario.name}`);
      if (cell && cell.kind !== 'pass')
        notes.push(`${target.name} / ${scenario.name}: ${cell.kind === 'fail' ? 'FAIL' : 'not supported'}: ${cell.detail}`);
    }
  } finally {
    await services.stopAll();
    interrupt.dispose();
  }
  const failures = [...results.values()].filter((c) => c.kind === 'fail').length;
  const rows = targets.map((t) => [t.name, ...scenarios.map((s) => mark(results.get(`${t.name}/${s.name}`)))]);
  process.stdout.write(`${formatTable(['target', ...scenarios.map((s) => s.name)], rows)}\n`);
  if (notes.length) process.stdout.write(`\n${notes.join('\n')}\n`);
  if (failures > 0) {
    throw errors.verifyFailed(failures, [...results.values()].filter((c) => c.kind !== 'skip').length);
  }
}
