import {
  encodeValue,
  HEADER_BREAK,
  isEncoded,
  NOT_IN_TARGET,
  parseTemplate,
  workloadSteps,
  type LoadShape,
  type TemplatePlace,
  type Workload,
  type WorkloadStep,
} from '@bench/core';
import { k6RefusalExpression, k6Refusals, type K6Refusal } from './k6-refusals.js';
import { k6Executor, K6_BODY_LENGTH } from './k6-script.js';

const js = (value: unknown) => JSON.stringify(value);

/**
 * A template as a JavaScript expression of the script: its text joined with the calls k6 makes per request, a path's
 * values percent-encoded (`enc`) as bench's own engines encode them.
 */
function templateExpression(text: string, place: TemplatePlace): string {
  const parts = parseTemplate(text).map((part) => {
    if (typeof part === 'string') return js(part);
    const { name, args } = part;
    const encoded = isEncoded(part, place);
    if (name === 'counter') return 'String(nextCounter())';
    if (name === 'uuid') return 'crypto.randomUUID()';
    if (name === 'randomInt') return `String(${Number(args[0])} + Math.floor(Math.random() * ${Number(args[1]) - Number(args[0]) + 1}))`;
    // pick's words are known: encoded here, once
    if (name === 'pick') return `pick(${js(encoded ? args.map(encodeValue) : args)})`;
    const value = name.startsWith('row.') ? `String(row[${js(name.slice(4))}] ?? '')` : `String(vars[${js(name)}] ?? '')`;
    return encoded ? `enc(${value})` : value;
  });
  return parts.length === 0 ? '""' : parts.join(' + ');
}

// An answer's body check, in the script's JavaScript (as the load engines check it).
function bodyTest(step: WorkloadStep): string {
  const e = step.expect;
  if (e.body !== undefined) return `(body) => body === ${js(e.body)}`;
  // each expression built once, when the script loads
  if (e.bodyMatches !== undefined) return `((re) => (body) => re.test(body))(new RegExp(${js(e.bodyMatches)}))`;
  if (e.json !== undefined) return `(body) => jsonContains(body, ${js(e.json)})`;
  return '() => true';
}

function captureFunction(spec: WorkloadStep['capture'][string]): string {
  if ('json' in spec) return `(res) => jsonPath(res.body, ${js(spec.json)})`;
  if ('header' in spec) return `(res) => header(res, ${js(spec.header)})`;
  return `((re) => (res) => { const m = re.exec(res.body); return m ? (m[1] ?? m[0]) : undefined; })(new RegExp(${js(spec.regex)}))`;
}

/** Whether a step's checks read its answer's body as text (else the script reads it as bytes). */
function readsText(step: WorkloadStep): boolean {
  const e = step.expect;
  return (
    e.body !== undefined || e.bodyMatches !== undefined || e.json !== undefined || Object.values(step.capture).some((c) => !('header' in c))
  );
}

function stepObject(step: WorkloadStep, refusals: readonly K6Refusal[]): string {
  const headers = Object.entries(step.headers)
    .map(([name, value]) => `${js(name)}: ${templateExpression(value, 'header')}`)
    .join(', ');
  const captures = Object.entries(step.capture)
    .map(([name, spec]) => `[${js(name)}, ${captureFunction(spec)}]`)
    .join(', ');
  return `{
    name: ${js(step.name)},
    method: ${js(step.method)},
    path: () => ${templateExpression(step.path, 'path')},
    headers: () => ({ ${headers} }),
    body: () => ${step.body !== undefined ? templateExpression(step.body, 'body') : 'null'},
    refusal: () => ${k6RefusalExpression(step, refusals)},
    responseType: ${js(readsText(step) ? 'text' : 'binary')},
    status: ${step.expect.status ?? 'undefined'},
    check: ${bodyTest(step)},
    captures: [${captures}],
    thinkSeconds: ${step.thinkMs / 1000},
  }`;
}

/**
 * The k6 script of a workload (what `bench run --engine k6` runs and `bench export k6` writes): each VU is a virtual
 * user running its once steps, then the cycle (mixes picked by smooth weighted round robin, as bench's own engines
 * pick them); generated values as bench makes them, counters unique across VUs and generators (strided by the VU's
 * id in the test); every request tagged with its step's name, so samples read back per step. Values in a path are
 * percent-encoded as bench's own engines encode them; a request a captured value would break is not sent (counted in
 * bench_refused, k6-refusals.ts) and the VU starts over, as on bench's own engines. Redirects are not followed: a 3xx
 * is the answer, on every engine. Self-contained: the data file's rows are in the script.
 */
export function k6WorkloadScript(o: {
  readonly baseUrl: string;
  readonly workload: Workload;
  readonly shape: LoadShape;
  /** The data file's rows read from a file beside the script (an export: they may be secret), not written into it. */
  readonly rowsFromFile?: string;
}): string {
  const { workload, shape } = o;
  const steps = workloadSteps(workload);
  const index = new Map(steps.map((step, i) => [step.name, i]));
  const once = workload.once.map((step) => index.get(step.name));
  const cycle = workload.cycle.map((slot) => ({
    weights: slot.map((member) => member.weight),
    members: slot.map((member) => member.steps.map((step) => index.get(step.name))),
  }));
  const data = workload.data;
  const refusals = k6Refusals(workload);
  return `// generated by bench: a workload on ${o.baseUrl}
import http from 'k6/http';
import exec from 'k6/execution';
import { sleep } from 'k6';
import { Counter } from 'k6/metrics';

const bodyMismatch = new Counter('bench_body_mismatch');
const bodyBytes = new Counter('bench_body_bytes');
// a request not sent, as a captured value would have broken it: the sample's value says where (k6Refusals)
const refused = new Counter('bench_refused');

export const options = {
  scenarios: { bench: ${js(k6Executor(shape))} },
  noConnectionReuse: ${!shape.keepAlive},
  summaryTrendStats: ['avg', 'p(99)'],
};

const BASE = ${js(o.baseUrl.replace(/\/+$/, ''))};
const VUS = ${shape.connections};
const ROWS = ${data ? (o.rowsFromFile ? `JSON.parse(open(__ENV.BENCH_DATA_FILE || ${js(`./${o.rowsFromFile}`)}))` : js(data.rows)) : '[]'};
const DATA = ${js(data ? { order: data.order, per: data.per } : { order: 'sequential', per: 'none' })};

// this VU's state: its counter, its data row, what it captured, its once steps, its place in each mix
let counted = 0;
const nextCounter = () => counted++ * VUS + exec.vu.idInTest;
const pick = (list) => list[Math.floor(Math.random() * list.length)];
let rowsTaken = 0;
const nextRow = () =>
  DATA.order === 'random' ? pick(ROWS) : ROWS[(rowsTaken++ * VUS + exec.vu.idInTest - 1) % ROWS.length];
let row = {};
const vars = {};

// a path's values percent-encoded as URI components (a lone surrogate, which has no UTF-8, as U+FFFD)
function enc(value) {
  try { return encodeURIComponent(value); } catch (e) {
    return encodeURIComponent(Array.from(value, (c) => (c.length === 1 && c >= '\\uD800' && c <= '\\uDFFF' ? '\\uFFFD' : c)).join(''));
  }
}
// what a captured value cannot hold where it stands
const HEADER_BREAK = ${HEADER_BREAK.toString()};
const NOT_IN_TARGET = ${NOT_IN_TARGET.toString()};
${K6_BODY_LENGTH}

function jsonContains(body, subset) {
  const contains = (actual, part) => {
    if (part === null || typeof part !== 'object') return Object.is(actual, part);
    if (Array.isArray(part)) return Array.isArray(actual) && part.every((item, i) => contains(actual[i], item));
    return actual !== null && typeof actual === 'object' && !Array.isArray(actual) && Object.keys(part).every((key) => key in actual && contains(actual[key], part[key]));
  };
  try { return contains(JSON.parse(body), subset); } catch (e) { return false; }
}
function jsonPath(body, path) {
  let value;
  try { value = JSON.parse(body); } catch (e) { return undefined; }
  for (const key of path.replace(/^\\$\\.?/, '').split(/\\.|\\[(\\d+)\\]/).filter((k) => k !== undefined && k !== '')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = value[key];
  }
  return value === undefined || value === null ? undefined : typeof value === 'string' ? value : JSON.stringify(value);
}
function header(res, name) {
  for (const key of Object.keys(res.headers)) if (key.toLowerCase() === name.toLowerCase()) return res.headers[key];
  return undefined;
}

const STEPS = [
  ${steps.map((step) => stepObject(step, refusals)).join(',\n  ')}
];
const ONCE = ${js(once)};
const CYCLE = ${js(cycle)};

// smooth weighted round robin, each VU from its own point of the sequence
const current = CYCLE.map((slot) => slot.weights.map(() => 0));
function pickMember(s) {
  const slot = CYCLE[s];
  const total = slot.weights.reduce((a, b) => a + b, 0);
  let best = 0;
  for (let i = 0; i < slot.weights.length; i++) {
    current[s][i] += slot.weights[i];
    if (current[s][i] > current[s][best]) best = i;
  }
  current[s][best] -= total;
  return slot.members[best];
}
CYCLE.forEach((slot, s) => {
  if (slot.members.length < 2) return;
  const skip = Math.floor(Math.random() * Math.round(slot.weights.reduce((a, b) => a + b, 0)));
  for (let i = 0; i < skip; i++) pickMember(s);
});

// one request of a step: sent, its answer checked and its captures taken; false when it failed, null when it was not
// sent (a captured value would have broken it: the VU starts over, its captures dropped, its once steps to run again)
function run(step) {
  if (DATA.per === 'request') row = nextRow();
  const refusal = step.refusal();
  if (refusal > 0) {
    refused.add(refusal, { name: step.name });
    for (const name of Object.keys(vars)) delete vars[name];
    onceDone = 0;
    return null;
  }
  if (step.thinkSeconds > 0) sleep(step.thinkSeconds);
  // redirects: 0: a 3xx is the answer, as bench's own engines count it
  const params = { headers: step.headers(), tags: { name: step.name }, timeout: '${Math.ceil(shape.timeoutSeconds)}s', responseType: step.responseType, redirects: 0 };
  const res = http.request(step.method, BASE + step.path(), step.body(), params);
  if (res.status === 0) return false;
  bodyBytes.add(bodyLength(res), { name: step.name });
  let ok = (step.status === undefined ? res.status >= 200 && res.status < 300 : res.status === step.status) && step.check(res.body ?? '');
  for (const [name, capture] of step.captures) {
    if (!ok) break;
    const value = capture(res);
    if (value === undefined) ok = false;
    else vars[name] = value;
  }
  if (!ok) bodyMismatch.add(1, { name: step.name });
  return ok;
}

let onceDone = 0;
export default function () {
  if (DATA.per === 'connection' && onceDone === 0 && Object.keys(row).length === 0) row = nextRow();
  while (onceDone < ONCE.length) {
    if (!run(STEPS[ONCE[onceDone]])) return;
    onceDone++;
  }
  for (let s = 0; s < CYCLE.length; s++)
    for (const i of CYCLE[s].members.length > 1 ? pickMember(s) : CYCLE[s].members[0]) if (run(STEPS[i]) === null) return;
}
`;
}
