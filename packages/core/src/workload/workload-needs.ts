import type { LoadEngine, WorkloadSupport } from '../engine.js';
import { isTemplate } from './template.js';
import { workloadSteps, type Workload } from './workload.js';

/** What running a workload takes of an engine, named as `bench list` names it. */
export function workloadNeeds(workload: Workload): (keyof WorkloadSupport)[] {
  const steps = workloadSteps(workload);
  const needs: (keyof WorkloadSupport)[] = [];
  const texts = steps.flatMap((step) => [step.path, ...Object.values(step.headers), step.body ?? '']);
  if (texts.some(isTemplate)) needs.push('templates');
  const sequence = workload.cycle.length > 1 || workload.cycle.some((slot) => slot.some((member) => member.steps.length > 1));
  if (workload.once.length > 0 || steps.some((step) => Object.keys(step.capture).length > 0) || sequence) needs.push('flows');
  if (workload.cycle.some((slot) => slot.length > 1)) needs.push('mixes');
  if (steps.some((step) => step.thinkMs > 0)) needs.push('thinkTime');
  return needs;
}

const NEED_WORDS: Record<keyof WorkloadSupport, string> = {
  templates: 'generated values',
  flows: 'flows (steps, captures, once)',
  mixes: 'mixes',
  thinkTime: 'think time',
};

/** Why an engine cannot run a workload (one line, naming what it lacks and who can), or undefined when it can. */
export function workloadRefusal(
  engine: Pick<LoadEngine, 'name' | 'workloads' | 'supportsWorkload'>,
  workload: Workload,
  scenario: string,
  able: readonly string[],
): string | undefined {
  const lacking = workloadNeeds(workload).filter((need) => !engine.workloads?.[need]);
  if (lacking.length === 0) {
    const support = engine.supportsWorkload?.(workload);
    return support && !support.ok ? `scenario "${scenario}": ${support.reason}` : undefined;
  }
  return `scenario "${scenario}" needs ${lacking.map((need) => NEED_WORDS[need]).join(' and ')}, which ${engine.name} does not run; ${able.length > 0 ? `use --engine ${able.join(' or ')}` : 'no engine here runs it'}`;
}
