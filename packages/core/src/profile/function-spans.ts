import { createRequire } from 'node:module';
import type * as Acorn from 'acorn';
import type * as AcornWalk from 'acorn-walk';

type Node = Acorn.Node;
// the parser loads with the first profile that names its functions, not with every bench command
const require = createRequire(import.meta.url);
const parser = () => require('acorn') as typeof Acorn;
const walker = () => require('acorn-walk') as typeof AcornWalk;

/** A function of a script: its name, its first and last line (0-based, as V8's call frames count them), what it calls. */
export interface FunctionSpan {
  readonly name: string;
  readonly startLine: number;
  readonly endLine: number;
  /** A method (of a class or an object literal): called as `this.name()`, where another function is called as `name()`. */
  readonly method: boolean;
  /** The calls in its body (nested functions' included), by the parsed callee: `name(...)` as "name", `this.name(...)` as "this.name". */
  readonly calls: ReadonlySet<string>;
}

type Named = Node & {
  id?: { name?: string } | null;
  key?: { name?: string; value?: unknown };
  value?: Node;
  loc?: { start: { line: number }; end: { line: number } };
};

/** The span of a script's top level: its lines outside every function, and the calls made there. */
export const TOP_LEVEL = '(top level)';

const METHOD_HOLDERS = new Set(['MethodDefinition', 'Property', 'PropertyDefinition']);
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

// the name a reader would look for: the declaration's, else what it is assigned to or defined as
function nameOf(fn: Named, parent: Named | undefined): string {
  if (fn.id?.name) return fn.id.name;
  if (parent?.type === 'VariableDeclarator' && parent.id?.name) return parent.id.name;
  const key = parent?.key;
  if (key?.name) return key.name;
  if (typeof key?.value === 'string') return key.value;
  return '(anonymous)';
}

// what a call names: a function of this scope ("name") or a method of this object ("this.name"); undefined for any
// other callee (`res.send(...)` calls res's send, which this script may not even define)
type Callee = Node & { name?: string; object?: Node; property?: Node & { name?: string }; computed?: boolean };

function calleeOf(call: Node & { callee?: Callee }): string | undefined {
  const callee = call.callee;
  if (callee?.type === 'Identifier') return callee.name;
  if (callee?.type === 'MemberExpression' && callee.object?.type === 'ThisExpression' && !callee.computed && callee.property?.name)
    return `this.${callee.property.name}`;
  return undefined;
}

function parseScript(source: string): Node | undefined {
  for (const sourceType of ['module', 'script'] as const) {
    try {
      return parser().parse(source, {
        ecmaVersion: 'latest',
        sourceType,
        locations: true,
        allowHashBang: true,
        allowReturnOutsideFunction: true,
      });
    } catch {
      // try the other kind of source
    }
  }
  return undefined;
}

/** Every function of a JavaScript source (module or script), with the calls in each, and its top level; [] when it does not parse. */
export function functionSpans(source: string): FunctionSpan[] {
  const program = parseScript(source);
  if (!program) return [];
  const spans: FunctionSpan[] = [];
  // acorn-walk visits a node after its children: a function's calls are known by the time it is visited
  const callsOf = new Map<Node, Set<string>>();
  const visitCall = (node: Node, _state: unknown, parents: Node[]) => {
    const callee = calleeOf(node);
    if (!callee) return;
    // the call is its enclosing functions' (a callback defined in a function is mostly run by it), else the top level's
    const holders = parents.filter((holder) => holder !== node && FUNCTIONS.has(holder.type));
    for (const holder of holders.length > 0 ? holders : [program]) {
      const calls = callsOf.get(holder) ?? new Set<string>();
      calls.add(callee);
      callsOf.set(holder, calls);
    }
  };
  const visitFunction = (node: Node, _state: unknown, parents: Node[]) => {
    const fn = node as Named;
    const parent = parents[parents.length - 2] as Named | undefined;
    if (!fn.loc) return;
    spans.push({
      name: nameOf(fn, parent),
      startLine: fn.loc.start.line - 1,
      endLine: fn.loc.end.line - 1,
      method: parent !== undefined && METHOD_HOLDERS.has(parent.type) && parent.value === fn,
      calls: callsOf.get(node) ?? new Set(),
    });
  };
  walker().ancestor(program, {
    CallExpression: visitCall,
    FunctionDeclaration: visitFunction,
    FunctionExpression: visitFunction,
    ArrowFunctionExpression: visitFunction,
  });
  // the module's top level, which V8 names as a function on line -1 (Node 24 optimises a hot loop there too)
  const last = (program as Named).loc?.end.line ?? 1;
  spans.push({ name: TOP_LEVEL, startLine: -1, endLine: last - 1, method: false, calls: callsOf.get(program) ?? new Set() });
  return spans;
}

/** The innermost function holding a line (0-based). */
export function innermostFunction(spans: readonly FunctionSpan[], line: number): FunctionSpan | undefined {
  let best: FunctionSpan | undefined;
  for (const span of spans)
    if (span.startLine <= line && line <= span.endLine && (!best || span.endLine - span.startLine <= best.endLine - best.startLine))
      best = span;
  return best;
}

/** Whether `caller` calls `callee` by name: a function as `name(...)`, a method as `this.name(...)`. */
export const callsByName = (caller: FunctionSpan, callee: FunctionSpan): boolean =>
  callee.name !== '(anonymous)' && callee.name !== TOP_LEVEL && caller.calls.has(callee.method ? `this.${callee.name}` : callee.name);

/** The deepest chain of calls an inlined line is followed through (V8 inlines a call inside an inlined call). */
export const MAX_INLINED_DEPTH = 3;

/**
 * The functions from `caller` to `callee` through calls by name within one script, `callee` last: the one chain of at
 * most MAX_INLINED_DEPTH calls when only one exists, `[callee]` alone when several do (which one ran is not known),
 * undefined when none does.
 */
export function callChain(spans: readonly FunctionSpan[], caller: FunctionSpan, callee: FunctionSpan): FunctionSpan[] | undefined {
  const chains: FunctionSpan[][] = [];
  const walk = (path: FunctionSpan[]) => {
    const last = path[path.length - 1] as FunctionSpan;
    for (const span of spans) {
      if (path.includes(span) || !callsByName(last, span)) continue;
      if (span === callee) chains.push([...path.slice(1), span]);
      else if (path.length < MAX_INLINED_DEPTH) walk([...path, span]);
    }
  };
  walk([caller]);
  if (chains.length === 0) return undefined;
  return chains.length === 1 ? chains[0] : [callee];
}
