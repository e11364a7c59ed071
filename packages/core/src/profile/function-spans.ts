import { parse, type Node } from 'acorn';
import { ancestor } from 'acorn-walk';

/** A function of a script: its name and its first and last line (0-based, as V8's call frames count them). */
export interface FunctionSpan {
  readonly name: string;
  readonly startLine: number;
  readonly endLine: number;
}

type Named = Node & {
  id?: { name?: string } | null;
  key?: { name?: string; value?: unknown };
  loc?: { start: { line: number }; end: { line: number } };
};

// the name a reader would look for: the declaration's, else what it is assigned to or defined as
function nameOf(fn: Named, parents: readonly Node[]): string {
  if (fn.id?.name) return fn.id.name;
  const parent = parents[parents.length - 2] as Named | undefined;
  const holder = parent as (Named & { type: string; id?: { name?: string } }) | undefined;
  if (holder?.type === 'VariableDeclarator' && holder.id?.name) return holder.id.name;
  const key = holder?.key;
  if (key?.name) return key.name;
  if (typeof key?.value === 'string') return key.value;
  return '(anonymous)';
}

/** Every function of a JavaScript source (module or script); [] when it does not parse. */
export function functionSpans(source: string): FunctionSpan[] {
  let program: Node | undefined;
  for (const sourceType of ['module', 'script'] as const) {
    try {
      program = parse(source, {
        ecmaVersion: 'latest',
        sourceType,
        locations: true,
        allowHashBang: true,
        allowReturnOutsideFunction: true,
      });
      break;
    } catch {
      // try the other kind of source
    }
  }
  if (!program) return [];
  const spans: FunctionSpan[] = [];
  const visit = (node: Node, _state: unknown, parents: Node[]) => {
    const fn = node as Named;
    if (fn.loc) spans.push({ name: nameOf(fn, parents), startLine: fn.loc.start.line - 1, endLine: fn.loc.end.line - 1 });
  };
  ancestor(program, { FunctionDeclaration: visit, FunctionExpression: visit, ArrowFunctionExpression: visit });
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
