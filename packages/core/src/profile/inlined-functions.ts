import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { scriptFrameName } from './frame-names.js';
import { callChain, functionSpans, innermostFunction, type FunctionSpan } from './function-spans.js';

/** A node of V8's .cpuprofile, as far as bench reads it. */
export interface V8ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
  /** Self samples by source line (1-based): lines of an inlined function are that function's. */
  positionTicks?: { line: number; ticks: number }[];
}

/**
 * V8 charges a function its optimising compiler inlined to the function it was inlined into (Node 20's, 22's and
 * 24's alike), but keeps the inlined code's own source lines. A sampled line in another function of the caller's
 * script is given back to that function, as frames under the caller marked inferred, only when the caller reaches it
 * through calls by name (parsed with acorn: `checksum(...)`, `this.send(...)`; `res.send(...)` calls res's send) of at
 * most MAX_INLINED_DEPTH functions, each a frame (the function alone when the caller reaches it by several ways). V8 gives the line of code inlined from another script in that
 * script's numbering, which cannot be told from the caller's: the match never leaves the caller's script, and a
 * line that lands in a function the caller does not call stays with the caller.
 */
export class InlinedFunctions {
  private readonly scripts = new Map<string, FunctionSpan[]>();
  private readonly chains = new Map<string, string[] | undefined>();
  private readonly v8Names = new Map<string, string>();

  constructor(
    nodes: readonly V8ProfileNode[],
    private readonly folder?: string,
  ) {
    // V8's own name for a function where it has one (it names methods and assigned functions its own way)
    for (const { callFrame: f } of nodes) if (f.functionName) this.v8Names.set(`${f.url}:${f.lineNumber}`, f.functionName);
  }

  private spans(url: string): FunctionSpan[] {
    let spans = this.scripts.get(url);
    if (!spans) {
      try {
        spans = url.startsWith('file://') ? functionSpans(readFileSync(fileURLToPath(url), 'utf8')) : [];
      } catch {
        spans = [];
      }
      this.scripts.set(url, spans);
    }
    return spans;
  }

  // the inferred frames from the caller (starting on `lineNumber`) to the function holding `line`, asked once per pair
  private chain(url: string, lineNumber: number, line: number): string[] | undefined {
    const spans = this.spans(url);
    const callee = innermostFunction(spans, line);
    if (!callee || callee.startLine === lineNumber) return undefined;
    const key = `${url}:${lineNumber}>${callee.startLine}:${callee.endLine}`;
    if (this.chains.has(key)) return this.chains.get(key);
    // the widest function starting on the caller's line: V8 names a function by where it starts
    const caller = spans
      .filter((span) => span.startLine === lineNumber)
      .sort((a, b) => b.endLine - b.startLine - (a.endLine - a.startLine))[0];
    const chain = caller && callChain(spans, caller, callee);
    const frames = chain?.map((span) =>
      scriptFrameName(this.v8Names.get(`${url}:${span.startLine}`) ?? span.name, url, span.startLine, {
        ...(this.folder ? { folder: this.folder } : {}),
        inferred: true,
      }),
    );
    this.chains.set(key, frames);
    return frames;
  }

  /** The self samples of a node split by the functions their lines belong to: [inferred frames under it, samples]. */
  split(node: V8ProfileNode, samples: number): [string[], number][] {
    const ticks = node.positionTicks ?? [];
    const counted = ticks.reduce((sum, t) => sum + t.ticks, 0);
    const { url, lineNumber } = node.callFrame;
    if (counted === 0 || !url) return [[[], samples]];
    const byChain = new Map<string, { frames: string[]; ticks: number }>();
    for (const { line, ticks: n } of ticks) {
      const frames = this.chain(url, lineNumber, line - 1) ?? [];
      const key = frames.join(';');
      const entry = byChain.get(key) ?? { frames, ticks: 0 };
      entry.ticks += n;
      byChain.set(key, entry);
    }
    // positionTicks and the samples may disagree by a few: shares of the samples, rounded
    const out: [string[], number][] = [];
    let given = 0;
    for (const { frames, ticks: n } of byChain.values()) {
      const share = Math.round((n / counted) * samples);
      out.push([frames, share]);
      given += share;
    }
    if (given !== samples) out.push([[], samples - given]);
    return out.filter(([, n]) => n > 0);
  }
}
