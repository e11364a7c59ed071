import { randomUUID } from 'node:crypto';
import {
  encodeValue,
  GENERATED,
  headerBytes,
  isChecked,
  isEncoded,
  PLACE_PROBLEMS,
  RefusedValue,
  valueProblem,
  type TemplatePlace,
} from './request-values.js';

// A request's path, header values and body may hold generated values: `{{counter}}`, `{{randomInt 1 500}}`,
// `{{uuid}}`, `{{pick red green blue}}`, `{{row.name}}` (the data file's column) and `{{token}}` (a variable an
// earlier step captured); `{{raw row.path}}` sends a value in a path as it is (request-values.ts). A template is parsed
// and compiled once before load; under load it is a list of parts joined.

/** One `{{...}}` of a template: the function's name and its arguments, as written; `raw` when it began with `raw`. */
export interface TemplateCall {
  readonly name: string;
  readonly args: readonly string[];
  readonly raw?: boolean;
}

export type TemplatePart = string | TemplateCall;

const CALL = /\{\{\s*([^}]*?)\s*\}\}/g;

/** The template's text and calls, in order. */
export function parseTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let at = 0;
  for (const match of text.matchAll(CALL)) {
    if (match.index > at) parts.push(text.slice(at, match.index));
    const words = match[1]!.split(/\s+/).filter(Boolean);
    const raw = words[0] === 'raw' && words.length > 1;
    const [name = '', ...args] = raw ? words.slice(1) : words;
    parts.push(raw ? { name, args, raw } : { name, args });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** Whether a text holds any `{{...}}`. */
export const isTemplate = (text: string): boolean => parseTemplate(text).some((part) => typeof part !== 'string');

/** What a connection carries from request to request: its captured variables and its current data row. */
export interface ConnectionState {
  vars: Record<string, string>;
  row?: Readonly<Record<string, string>>;
}

/** Where generated values come from: one per engine thread (its counter strides over the run's threads). */
export interface ValueSource {
  readonly counter: () => number;
  /** A float in [0, 1). */
  readonly random: () => number;
}

/** The names a template may use: variables captured before it and the data file's columns. */
export interface TemplateScope {
  readonly vars: ReadonlySet<string>;
  readonly columns?: readonly string[];
}

const FUNCTIONS = ['counter', 'randomInt', 'uuid', 'pick', 'row.COLUMN', 'a captured variable', 'raw VALUE'];

/** A call as it was written: `{{raw row.path}}`. */
export const quoteCall = (call: TemplateCall): string => `{{${[...(call.raw ? ['raw'] : []), call.name, ...call.args].join(' ')}}}`;

/** What a call takes its value from: bench's own generator, pick's words, a data file's column or a captured variable. */
export function callKind(call: TemplateCall): 'generated' | 'pick' | 'row' | 'variable' {
  if (GENERATED.has(call.name)) return 'generated';
  if (call.name === 'pick') return 'pick';
  return call.name.startsWith('row.') ? 'row' : 'variable';
}

/** What is wrong with one call, or undefined. */
function callProblem(call: TemplateCall, scope: TemplateScope): string | undefined {
  const { name, args } = call;
  const quoted = quoteCall(call);
  if (name === 'raw' && (call.raw || !scope.vars.has('raw'))) return `${quoted}: raw takes one value to send as it is ({{raw row.path}})`;
  if (name === 'counter' || name === 'uuid') return args.length === 0 ? undefined : `${quoted}: ${name} takes no arguments`;
  if (name === 'randomInt') {
    const [min, max] = args.map(Number);
    if (args.length !== 2 || !Number.isInteger(min) || !Number.isInteger(max) || min! > max!)
      return `${quoted}: randomInt takes two integers, the least and the greatest ({{randomInt 1 500}})`;
    return undefined;
  }
  if (name === 'pick') return args.length > 0 ? undefined : `${quoted}: pick takes the values to choose from ({{pick red green}})`;
  if (name.startsWith('row.')) {
    const column = name.slice(4);
    if (!scope.columns) return `${quoted}: the scenario names no data file (data: { file })`;
    return scope.columns.includes(column)
      ? undefined
      : `${quoted}: the data file has no column "${column}" (it has ${scope.columns.join(', ')})`;
  }
  if (args.length === 0 && scope.vars.has(name)) return undefined;
  return `${quoted}: unknown template function "${name}" (known: ${FUNCTIONS.join(', ')}${scope.vars.size > 0 ? `; variables captured before: ${[...scope.vars].join(', ')}` : ''})`;
}

/** What is wrong with a template's calls, in this scope; [] when it compiles. */
export function templateProblems(text: string, scope: TemplateScope): string[] {
  return parseTemplate(text).flatMap((part) => {
    if (typeof part === 'string') return [];
    const problem = callProblem(part, scope);
    return problem ? [problem] : [];
  });
}

type Render = (state: ConnectionState) => string;

/** Where a template stands, and what a refused value's message says of it. */
export interface TemplateSite {
  readonly place: TemplatePlace;
  /** What the message of a refused value starts with: `step get-item: header authorization`. */
  readonly where?: string;
  /** Which step(s) capture a variable: `captured by step login`. */
  readonly capturedBy?: (name: string) => string;
}

const BODY: TemplateSite = { place: 'body' };

/**
 * A call in its place, its value made as it is sent: a path's percent-encoded (unless raw), a header's as its UTF-8
 * bytes (headerBytes); a captured variable's checked first where it would break the request (a RefusedValue thrown).
 * Rows and pick's words are checked when the workload is built.
 */
function compileCall(call: TemplateCall, source: ValueSource, site: TemplateSite): Render {
  const kind = callKind(call);
  if (kind === 'generated') return compileValue(call, source);
  const { place } = site;
  const asSent = isEncoded(call, place) ? encodeValue : place === 'header' ? headerBytes : undefined;
  // pick's words are known before load: made as they are sent once, here
  if (kind === 'pick') return compileValue(asSent ? { ...call, args: call.args.map(asSent) } : call, source);
  const value = compileValue(call, source);
  let checked = value;
  if (kind === 'variable' && place !== 'body' && isChecked(call, place)) {
    const refused = refusalMessage(site.where ?? place, call, site.capturedBy?.(call.name) ?? 'a captured variable', place);
    checked = (state) => {
      const text = value(state);
      if (valueProblem(place, text) !== undefined) throw new RefusedValue(refused);
      return text;
    };
  }
  return asSent ? (state) => asSent(checked(state)) : checked;
}

/** What a request refused for a captured value says, on every engine: `step get: header authorization: {{token}} (captured by step login) holds ...`. */
export function refusalMessage(where: string, call: TemplateCall, from: string, place: keyof typeof PLACE_PROBLEMS): string {
  return `${where}: ${quoteCall(call)} (${from}) ${PLACE_PROBLEMS[place]}; the request was not sent`;
}

function compileValue(call: TemplateCall, source: ValueSource): Render {
  const { name, args } = call;
  switch (name) {
    case 'counter':
      return () => String(source.counter());
    case 'uuid':
      return () => randomUUID();
    case 'randomInt': {
      const min = Number(args[0]);
      const span = Number(args[1]) - min + 1;
      return () => String(min + Math.floor(source.random() * span));
    }
    case 'pick':
      return () => args[Math.floor(source.random() * args.length)]!;
  }
  if (name.startsWith('row.')) {
    const column = name.slice(4);
    return (state) => state.row?.[column] ?? '';
  }
  return (state) => state.vars[name] ?? '';
}

/** A template compiled: a fixed text, or its parts rendered and joined per request. */
export interface CompiledTemplate {
  /** The text, when it holds no call (nothing to render). */
  readonly fixed?: string;
  render(state: ConnectionState): string;
}

/** Compiles a template already checked by templateProblems, for its place in the request (a body's by default). */
export function compileTemplate(text: string, source: ValueSource, site: TemplateSite = BODY): CompiledTemplate {
  // a header's text, as its values, is sent as its UTF-8 bytes
  const asText = site.place === 'header' ? headerBytes : (part: string) => part;
  const parts = parseTemplate(text).map((part) => (typeof part === 'string' ? asText(part) : compileCall(part, source, site)));
  if (parts.every((part) => typeof part === 'string')) {
    const fixed = asText(text);
    return { fixed, render: () => fixed };
  }
  if (parts.length === 1) return { render: parts[0] as Render };
  return {
    render: (state) => {
      let out = '';
      for (const part of parts) out += typeof part === 'string' ? part : part(state);
      return out;
    },
  };
}
