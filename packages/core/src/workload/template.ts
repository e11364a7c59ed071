import { randomUUID } from 'node:crypto';

// A request's path, header values and body may hold generated values: `{{counter}}`, `{{randomInt 1 500}}`,
// `{{uuid}}`, `{{pick red green blue}}`, `{{row.name}}` (the data file's column) and `{{token}}` (a variable an
// earlier step captured). A template is parsed and compiled once before load; under load it is a list of parts joined.

/** One `{{...}}` of a template: the function's name and its arguments, as written. */
export interface TemplateCall {
  readonly name: string;
  readonly args: readonly string[];
}

export type TemplatePart = string | TemplateCall;

const CALL = /\{\{\s*([^}]*?)\s*\}\}/g;

/** The template's text and calls, in order. */
export function parseTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let at = 0;
  for (const match of text.matchAll(CALL)) {
    if (match.index > at) parts.push(text.slice(at, match.index));
    const [name = '', ...args] = match[1]!.split(/\s+/).filter(Boolean);
    parts.push({ name, args });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** Whether a text holds any `{{...}}`. */
export const isTemplate = (text: string): boolean => parseTemplate(text).some((part) => typeof part !== 'string');

/** What a connection carries from request to request: its captured variables and its current data row. */
export interface ConnectionState {
  readonly vars: Record<string, string>;
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

const FUNCTIONS = ['counter', 'randomInt', 'uuid', 'pick', 'row.COLUMN', 'a captured variable'];

/** What is wrong with one call, or undefined. */
function callProblem(call: TemplateCall, scope: TemplateScope): string | undefined {
  const { name, args } = call;
  const quoted = `{{${[name, ...args].join(' ')}}}`;
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

function compileCall(call: TemplateCall, source: ValueSource): Render {
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

/** Compiles a template already checked by templateProblems. */
export function compileTemplate(text: string, source: ValueSource): CompiledTemplate {
  const parts = parseTemplate(text).map((part) => (typeof part === 'string' ? part : compileCall(part, source)));
  if (parts.every((part) => typeof part === 'string')) return { fixed: text, render: () => text };
  if (parts.length === 1) return { render: parts[0] as Render };
  return {
    render: (state) => {
      let out = '';
      for (const part of parts) out += typeof part === 'string' ? part : part(state);
      return out;
    },
  };
}
