import { messageOf } from '../errors.js';
import path from 'node:path';
import type { z } from 'zod';
import { answerExpectation } from '../answer-expectation.js';
import { requestText } from '../request-scenario.js';
import type { Scenario } from '../scenario.js';
import { describeIssue } from '../schema-issue.js';
import { readDataFile } from './data-file.js';
import { isChecked, PLACE_PROBLEMS, requestSites, valueProblem } from './request-values.js';
import { callKind, isTemplate, parseTemplate, quoteCall, templateProblems } from './template.js';
import type { Workload, WorkloadData, WorkloadMember, WorkloadStep } from './workload.js';
import {
  flowScenarioSchema,
  mixScenarioSchema,
  stepSchema,
  type DataConfig,
  type FlowScenarioInput,
  type MixConfig,
  type MixScenarioInput,
  type StepConfig,
  type StepInput,
} from './workload-schema.js';

/** A scenario entry of a config given as an object: a request spec, a flow ({ steps }) or a mix ({ mix }). */
export type ScenarioObjectInput = StepInput | FlowScenarioInput | MixScenarioInput;

/** What building a workload needs from where its entry came from. */
export interface WorkloadSource {
  /** The config's scenario objects by name: the scenarios a mix names. */
  readonly entries: ReadonlyMap<string, ScenarioObjectInput>;
  /** Where a data file's relative path starts. */
  readonly dir: string;
  /** Throws the error for bad input, the detail given (it names the scenario and the step). */
  readonly fail: (detail: string) => never;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Whether a scenario object needs a workload (a flow, a mix, captures, a data file or generated values), not one fixed request. */
export function needsWorkload(entry: ScenarioObjectInput): boolean {
  if ('steps' in entry || 'mix' in entry) return true;
  if (entry.capture !== undefined || entry.data !== undefined || entry.once !== undefined || entry.thinkMs !== undefined) return true;
  const texts = [
    entry.path,
    ...Object.values(entry.headers ?? {}),
    typeof entry.body === 'string' ? entry.body : JSON.stringify(entry.body ?? ''),
  ];
  return texts.some(isTemplate);
}

function parsed<T extends z.ZodType>(schema: T, value: unknown, fail: (detail: string) => never, where: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) fail(`${where}: ${describeIssue(result.error.issues[0]!)}`);
  return result.data;
}

function toStep(spec: StepConfig, name: string): WorkloadStep {
  const { method, headers, body } = requestText(spec);
  return {
    name,
    method,
    path: spec.path,
    headers,
    ...(body !== undefined ? { body } : {}),
    expect: spec.expect,
    capture: spec.capture ?? {},
    thinkMs: spec.thinkMs ?? 0,
  };
}

/** Builds the workload of a scenario object, checking its names, weights, templates and data file. */
export function buildWorkload(entry: ScenarioObjectInput, source: WorkloadSource): Workload {
  const scenario = `scenario "${entry.name}"`;
  const once: WorkloadStep[] = [];
  const cycle: WorkloadMember[][] = [];
  let dataConfig: DataConfig | undefined;

  // a mix member: a request spec (one step) or a flow (its steps, named member.step; its once steps run once per connection)
  const member = (name: string, weight: number): WorkloadMember => {
    const found = source.entries.get(name);
    if (!found || !isObject(found)) source.fail(`${scenario}: its mix names "${name}", which is no scenario object of this config`);
    if ('mix' in found) source.fail(`${scenario}: its mix names "${name}", itself a mix; name request specs or flows`);
    if ('steps' in found) {
      const flow = parsed(flowScenarioSchema, found, source.fail, `scenario "${name}"`);
      const steps: WorkloadStep[] = [];
      for (const step of flow.steps) {
        if ('mix' in step) source.fail(`${scenario}: its mix names "${name}", a flow with a mix of its own; name flows without one`);
        const built = toStep(step, `${name}.${step.name}`);
        if (step.once) {
          if (!once.some((s) => s.name === built.name)) once.push(built);
        } else steps.push(built);
      }
      return { name, weight, steps };
    }
    const spec = parsed(stepSchema, found, source.fail, `scenario "${name}"`);
    return { name, weight, steps: [toStep(spec, name)] };
  };

  // a mix's members: scenarios named with their weights, or requests written in place
  const members = (mix: MixConfig): WorkloadMember[] =>
    Array.isArray(mix)
      ? mix.map((step) => ({ name: step.name, weight: step.weight, steps: [toStep(step, step.name)] }))
      : Object.entries(mix).map(([name, weight]) => member(name, weight));

  if ('steps' in entry) {
    const flow = parsed(flowScenarioSchema, entry, source.fail, scenario);
    dataConfig = flow.data;
    for (const step of flow.steps) {
      if ('mix' in step) cycle.push(members(step.mix));
      else if (step.once) once.push(toStep(step, step.name));
      else cycle.push([{ name: step.name, weight: 1, steps: [toStep(step, step.name)] }]);
    }
  } else if ('mix' in entry) {
    const mix = parsed(mixScenarioSchema, entry, source.fail, scenario);
    dataConfig = mix.data;
    cycle.push(members(mix.mix));
  } else {
    const spec = parsed(stepSchema, entry, source.fail, scenario);
    dataConfig = spec.data;
    cycle.push([{ name: spec.name, weight: 1, steps: [toStep(spec, spec.name)] }]);
  }
  if (cycle.length === 0) source.fail(`${scenario}: every step is "once"; a flow needs a step to repeat`);

  let data: WorkloadData | undefined;
  if (dataConfig) {
    const file = path.resolve(source.dir, dataConfig.file);
    try {
      data = { ...dataConfig, file, ...readDataFile(file) };
    } catch (error) {
      source.fail(`${scenario}: ${messageOf(error)}`);
    }
  }
  const workload: Workload = { once, cycle, ...(data ? { data } : {}) };
  checkWorkload(workload, scenario, source.fail);
  return workload;
}

/** Unique step names, and templates that use only functions, columns and variables captured before them. */
function checkWorkload(workload: Workload, scenario: string, fail: (detail: string) => never): void {
  const seen = new Set<string>();
  const vars = new Set<string>();
  const columns = workload.data?.columns;
  const check = (step: WorkloadStep, known: ReadonlySet<string>) => {
    if (seen.has(step.name)) fail(`${scenario}: two steps are named "${step.name}"; name each step once`);
    seen.add(step.name);
    const texts = [step.path, ...Object.values(step.headers), step.body ?? ''];
    const problem = texts.flatMap((text) => templateProblems(text, { vars: known, ...(columns ? { columns } : {}) }))[0];
    if (problem) fail(`${scenario}, step "${step.name}": ${problem}`);
    const bad = valuesProblem(step, workload.data);
    if (bad) fail(`${scenario}, step "${step.name}": ${bad}`);
  };
  for (const step of workload.once) {
    check(step, vars);
    for (const name of Object.keys(step.capture)) vars.add(name);
  }
  for (const slot of workload.cycle) {
    const after = new Set(vars);
    for (const { steps } of slot) {
      // within a member, a step sees what the member's earlier steps captured
      const inMember = new Set(vars);
      for (const step of steps) {
        check(step, inMember);
        for (const name of Object.keys(step.capture)) {
          inMember.add(name);
          after.add(name);
        }
      }
    }
    for (const name of after) vars.add(name);
  }
}

/**
 * What a step would send that a request cannot carry, among the values known before load: its text, pick's words and
 * every row of the data file, in the path (a raw value's) and in header values. Captured values are checked as each
 * request is rendered (flow-cursor.ts).
 */
function valuesProblem(step: WorkloadStep, data: WorkloadData | undefined): string | undefined {
  for (const { place, text, label } of requestSites(step)) {
    const bad = (value: string) => valueProblem(place, value) !== undefined;
    for (const part of parseTemplate(text)) {
      if (typeof part === 'string') {
        if (bad(part))
          return `${label}: its text ${PLACE_PROBLEMS[place]}; ${place === 'path' ? 'percent-encode it (%20 for a space)' : 'remove them'}`;
        continue;
      }
      if (!isChecked(part, place)) continue;
      const kind = callKind(part);
      const fix = place === 'path' ? 'drop raw to have it percent-encoded' : `fix the ${kind === 'row' ? 'data file' : 'step'}`;
      if (kind === 'pick' && part.args.some(bad)) return `${label}: ${quoteCall(part)} (a word of pick) ${PLACE_PROBLEMS[place]}; ${fix}`;
      const column = part.name.slice(4);
      const at = kind === 'row' && data ? data.rows.findIndex((row) => bad(row[column] ?? '')) : -1;
      if (at >= 0)
        return `${label}: ${quoteCall(part)} (data file ${path.basename(data!.file)}, row ${at + 1}, column ${column}) ${PLACE_PROBLEMS[place]}; ${fix}`;
    }
  }
  return undefined;
}

/** How a workload reads in one line: "login once, then get-item 80% / create-item 20%". */
export function describeWorkload(workload: Workload): string {
  const total = (slot: readonly WorkloadMember[]) => slot.reduce((sum, m) => sum + m.weight, 0);
  const slots = workload.cycle.map((slot) =>
    slot.length === 1
      ? slot[0]!.steps.map((s) => `${s.method} ${s.path}`).join(', ')
      : slot.map((m) => `${m.name} ${Math.round((m.weight / total(slot)) * 1000) / 10}%`).join(' / '),
  );
  const once = workload.once.map((s) => s.name).join(', ');
  return `${once ? `${once} once per connection, then ` : ''}${slots.join(', then ')}`;
}

/** The scenario of a workload: its first repeated step stands as its request (for titles and engines that show one). */
export function workloadScenario(entry: ScenarioObjectInput, workload: Workload): Scenario {
  const first = workload.cycle[0]![0]!.steps[0] ?? workload.once[0]!;
  const body = first.body !== undefined ? Buffer.from(first.body) : undefined;
  const kind = 'steps' in entry ? 'flow' : 'mix' in entry ? 'mix' : `${first.method} ${first.path}`;
  return {
    name: entry.name,
    title: entry.title ?? (kind === 'flow' || kind === 'mix' ? `${entry.name} (${kind})` : kind),
    from: [],
    description: describeWorkload(workload),
    services: [],
    request: { method: first.method, path: first.path, headers: first.headers, ...(body ? { body } : {}) },
    expect: answerExpectation(first.expect),
    workload,
  };
}
