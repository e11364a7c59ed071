import { answerExpectation } from '../answer-expectation.js';
import { bodyTextCheck } from '../expectation.js';
import { hideForms, REDACTED, secretForms } from '../redact/hidden-values.js';
import { overLimitProblem } from '../measure/bounded-body.js';
import type { AnswerExpectation } from '../scenario.js';
import { compileCapture, describeCapture, type AnswerHeaders, type Capture } from './capture.js';
import { RefusedValue } from './request-values.js';
import { compileTemplate, type CompiledTemplate, type ConnectionState, type ValueSource } from './template.js';
import { workloadSteps, type Workload, type WorkloadMember, type WorkloadStep } from './workload.js';

// Captured values hidden in the messages a connection's steps make: the last few, each four characters or more (a
// shorter one, an id such as "42", would hide every 42 of a message and nothing else); a secret one (`secret: true`)
// in its escaped forms and the pieces a sample's cut leaves as well.
const MASKED_VALUES = 16;
const MASKED_LENGTH = 4;

/** A capture compiled: its variable, how it finds the value, the capture as written, and whether the value is secret. */
export interface CompiledCapture {
  readonly name: string;
  readonly capture: Capture;
  readonly described: string;
  readonly secret: boolean;
}

/** A step compiled once for a thread: its templates, its answer check and its captures. */
export interface CompiledStep {
  /** Its place in CompiledWorkload.steps: engines keep one tally per step by it. */
  readonly index: number;
  readonly name: string;
  readonly method: string;
  readonly thinkMs: number;
  readonly expect: AnswerExpectation;
  readonly path: CompiledTemplate;
  readonly headers: readonly (readonly [string, CompiledTemplate])[];
  readonly body?: CompiledTemplate;
  readonly checkBody?: (text: string, byteLength: number) => boolean;
  readonly captures: readonly CompiledCapture[];
}

/**
 * A step's request with its values generated, ready to encode: its path's values percent-encoded already, its header
 * values as their UTF-8 bytes, a character a byte (headerBytes), for clients that write a header as latin1.
 */
export interface RenderedRequest {
  readonly step: CompiledStep;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/** A step's request that is not sent: a captured value it would carry would break it (a header's CR LF). */
export interface RefusedRequest {
  readonly step: CompiledStep;
  /** Names the step, where the value stands and where it came from: `step get: header authorization: {{token}} (...)`. */
  readonly refused: string;
}

/** What was wrong with a step's answer: the answer itself (status, body), or a capture that found nothing in it. */
export interface StepProblem {
  readonly kind: 'answer' | 'capture';
  readonly message: string;
}

// One counter a thread: it continues over the runs a thread serves (a cell's warm-up, then its measured run), so
// values stay unique over a cell; its values stride over the run's threads.
let issued = 0;

/** Generated values for thread `index` of `count`: counter values unique across the run's threads. */
export function threadValueSource(index = 0, count = 1): ValueSource {
  return {
    counter: () => issued++ * count + index + 1,
    random: Math.random,
  };
}

/** Which step(s) capture each variable, for messages: `captured by step login`. */
export function capturers(steps: readonly WorkloadStep[]): (name: string) => string {
  const by = new Map<string, string[]>();
  for (const step of steps) for (const name of Object.keys(step.capture)) by.set(name, [...(by.get(name) ?? []), step.name]);
  return (name) => {
    const names = by.get(name) ?? [];
    return `captured by step${names.length > 1 ? 's' : ''} ${names.join(', ')}`;
  };
}

function compileStep(step: WorkloadStep, index: number, source: ValueSource, capturedBy: (name: string) => string): CompiledStep {
  const expect = answerExpectation(step.expect);
  const checkBody = bodyTextCheck(expect.body);
  const where = `step ${step.name}`;
  return {
    index,
    name: step.name,
    method: step.method,
    thinkMs: step.thinkMs,
    expect,
    path: compileTemplate(step.path, source, { place: 'path', where: `${where}: path`, capturedBy }),
    headers: Object.entries(step.headers).map(
      ([name, value]) =>
        [name, compileTemplate(value, source, { place: 'header', where: `${where}: header ${name}`, capturedBy })] as const,
    ),
    ...(step.body !== undefined ? { body: compileTemplate(step.body, source) } : {}),
    ...(checkBody ? { checkBody } : {}),
    captures: Object.entries(step.capture).map(([name, spec]) => ({
      name,
      capture: compileCapture(spec),
      described: describeCapture(spec),
      secret: spec.secret === true,
    })),
  };
}

/** Smooth weighted round robin (as nginx balances): exact shares over every total-weight picks, spread evenly between. */
class WeightedPicker<T> {
  private readonly current: number[];
  private readonly total: number;

  constructor(
    private readonly items: readonly T[],
    private readonly weights: readonly number[],
    random: () => number,
  ) {
    this.current = weights.map(() => 0);
    this.total = weights.reduce((sum, w) => sum + w, 0);
    // each connection starts at its own point of the sequence, so connections do not pick in step
    const skip = Math.floor(random() * Math.max(1, Math.round(this.total)));
    for (let i = 0; i < skip; i++) this.pick();
  }

  pick(): T {
    let best = 0;
    for (let i = 0; i < this.current.length; i++) {
      this.current[i]! += this.weights[i]!;
      if (this.current[i]! > this.current[best]!) best = i;
    }
    this.current[best]! -= this.total;
    return this.items[best]!;
  }
}

/** A workload compiled for one thread: its steps, and a cursor for each connection. */
export class CompiledWorkload {
  readonly steps: readonly CompiledStep[];
  private readonly once: readonly CompiledStep[];
  private readonly cycle: readonly (readonly { steps: readonly CompiledStep[] }[])[];
  private readonly weights: readonly (readonly number[])[];
  private rowsTaken = 0;

  constructor(
    readonly workload: Workload,
    private readonly source: ValueSource,
    private readonly thread: { readonly index: number; readonly count: number } = { index: 0, count: 1 },
  ) {
    const byName = new Map<string, CompiledStep>();
    const all = workloadSteps(workload);
    const capturedBy = capturers(all);
    this.steps = all.map((step, i) => {
      const compiled = compileStep(step, i, source, capturedBy);
      byName.set(step.name, compiled);
      return compiled;
    });
    const compiled = (step: WorkloadStep) => byName.get(step.name)!;
    this.once = workload.once.map(compiled);
    this.cycle = workload.cycle.map((slot) => slot.map((member: WorkloadMember) => ({ steps: member.steps.map(compiled) })));
    this.weights = workload.cycle.map((slot) => slot.map((member) => member.weight));
  }

  /** The next data row: in turn (this thread's share of the rows, strided over threads) or at random. */
  nextRow(): Readonly<Record<string, string>> | undefined {
    const data = this.workload.data;
    if (!data) return undefined;
    if (data.order === 'random') return data.rows[Math.floor(this.source.random() * data.rows.length)];
    const at = (this.rowsTaken++ * this.thread.count + this.thread.index) % data.rows.length;
    return data.rows[at];
  }

  /** A new connection's cursor: its once steps first, then the cycle. */
  connection(): FlowCursor {
    return new FlowCursor(this, this.once, this.cycle, this.weights, this.source.random);
  }
}

/** One connection's (virtual user's) place in its workload, and what it captured. */
export class FlowCursor {
  readonly state: ConnectionState = { vars: {} };
  /** The values this connection captured most recently, and its secret ones (hidden with their escaped forms and cut pieces). */
  private readonly captured: string[] = [];
  private readonly secrets: string[] = [];
  private onceDone = 0;
  private slot = 0;
  private queue: readonly CompiledStep[] = [];
  private queued = 0;
  private readonly pickers: (WeightedPicker<{ steps: readonly CompiledStep[] }> | undefined)[];

  constructor(
    private readonly compiled: CompiledWorkload,
    private readonly once: readonly CompiledStep[],
    private readonly cycle: readonly (readonly { steps: readonly CompiledStep[] }[])[],
    weights: readonly (readonly number[])[],
    random: () => number,
  ) {
    this.pickers = cycle.map((slot, i) => (slot.length > 1 ? new WeightedPicker(slot, weights[i]!, random) : undefined));
    if (compiled.workload.data?.per === 'connection') this.state.row = compiled.nextRow();
  }

  /** The step the connection sends next (a once step until all have passed). */
  private nextStep(): CompiledStep {
    if (this.onceDone < this.once.length) return this.once[this.onceDone]!;
    if (this.queued >= this.queue.length) {
      const members = this.cycle[this.slot]!;
      this.queue = (this.pickers[this.slot]?.pick() ?? members[0]!).steps;
      this.queued = 0;
      this.slot = (this.slot + 1) % this.cycle.length;
    }
    return this.queue[this.queued++]!;
  }

  /** Whether the next request begins a new pass of the cycle (its once steps done): an open loop's arrival ends here. */
  atPassStart(): boolean {
    return this.onceDone >= this.once.length && this.slot === 0 && this.queued >= this.queue.length;
  }

  /** Whether this once step is still to pass (a failed login ends an open loop's arrival; the next one sends it again). */
  isPendingOnce(step: CompiledStep): boolean {
    return this.onceDone < this.once.length && this.once[this.onceDone] === step;
  }

  /** The next request, its values generated; or, when a captured value would break it, why it is not sent. */
  next(): RenderedRequest | RefusedRequest {
    return this.render(this.nextStep());
  }

  /**
   * A step's request with this connection's values (verification walks every step this way). A request a captured value
   * would break is refused, and the connection starts over as a new virtual user: its captures dropped, its once steps
   * to run again. With its variables gone nothing can be refused again before a request was sent and answered.
   */
  render(step: CompiledStep): RenderedRequest | RefusedRequest {
    if (this.compiled.workload.data?.per === 'request') this.state.row = this.compiled.nextRow();
    const headers: Record<string, string> = {};
    try {
      for (const [name, value] of step.headers) headers[name] = value.fixed ?? value.render(this.state);
      return {
        step,
        method: step.method,
        path: step.path.fixed ?? step.path.render(this.state),
        headers,
        ...(step.body ? { body: step.body.fixed ?? step.body.render(this.state) } : {}),
      };
    } catch (error) {
      if (!(error instanceof RefusedValue)) throw error;
      this.startOver();
      return { step, refused: error.message };
    }
  }

  private startOver(): void {
    this.state.vars = {};
    this.onceDone = 0;
    this.slot = 0;
    this.queue = [];
    this.queued = 0;
  }

  /**
   * Takes a step's answer: checks its status and body, takes its captures; returns what was wrong, or undefined. A once
   * step counts as done when its answer passed (a failed login is sent again).
   */
  answered(
    step: CompiledStep,
    status: number,
    headers: AnswerHeaders,
    body: string,
    byteLength: number,
    /** The limit the engine kept the body to, when the body went past it (and `body` is empty). */
    overLimit?: number,
  ): StepProblem | undefined {
    if (overLimit !== undefined && (step.checkBody !== undefined || step.captures.length > 0))
      return { kind: 'answer', message: `step ${step.name}: ${overLimitProblem(byteLength, overLimit)}` };
    const wrong = answerProblem(step, status, body, byteLength);
    const problem: StepProblem | undefined = wrong !== undefined ? { kind: 'answer', message: wrong } : this.capture(step, headers, body);
    if (problem === undefined && this.onceDone < this.once.length && this.once[this.onceDone] === step) this.onceDone++;
    return problem && { ...problem, message: this.masked(problem.message) };
  }

  /**
   * A message without the values this connection captured: a token a login step took is as secret as the header it goes
   * out in, and a body these messages quote may echo it (the run's redaction knows the config's secrets, not these).
   */
  private masked(message: string): string {
    let out = this.secrets.length > 0 ? hideForms(message, secretForms(this.secrets)) : message;
    for (const value of this.captured) out = out.split(value).join(REDACTED);
    return out;
  }

  private capture(step: CompiledStep, headers: AnswerHeaders, body: string): StepProblem | undefined {
    for (const { name, capture, described, secret } of step.captures) {
      const value = capture(headers, body);
      if (value === undefined)
        return { kind: 'capture', message: `step ${step.name}: capture ${name} (${described}) found nothing in: ${body.slice(0, 120)}` };
      this.state.vars[name] = value;
      const kept = secret ? this.secrets : this.captured;
      if (value.length >= MASKED_LENGTH && !kept.includes(value)) {
        kept.unshift(value);
        kept.length = Math.min(kept.length, MASKED_VALUES);
      }
    }
    return undefined;
  }
}

/** What is wrong with a step's answer (its status against the one expected or 2xx, then its body), or undefined. */
export function answerProblem(step: CompiledStep, status: number, body: string, byteLength: number): string | undefined {
  const expected = step.expect.status;
  if (expected !== undefined ? status !== expected : status < 200 || status >= 300)
    return `step ${step.name}: status ${status}, expected ${expected ?? '2xx'}`;
  if (step.checkBody && !step.checkBody(body, byteLength)) return `step ${step.name}: body fails its check (starts: ${body.slice(0, 80)})`;
  return undefined;
}
