import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { messageOf, errors, type Reporter, type ReporterContext, type ReporterFactory } from '@bench/core';
import { builtinReporters } from './registry.js';

const HOOKS = ['onRunStart', 'onResult', 'onRunEnd'] as const;

function isReporter(value: unknown): value is Reporter {
  return (
    typeof value === 'object' && value !== null && HOOKS.some((hook) => typeof (value as Record<string, unknown>)[hook] === 'function')
  );
}

const looksLikePath = (spec: string) => spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('file:');

// A path is resolved from the current directory; a package name as if required from there.
function resolveModule(spec: string): string | undefined {
  if (spec.startsWith('file:')) return spec;
  if (looksLikePath(spec)) {
    const absolute = path.resolve(spec);
    return existsSync(absolute) ? pathToFileURL(absolute).href : undefined;
  }
  try {
    return pathToFileURL(createRequire(path.join(process.cwd(), 'index.js')).resolve(spec)).href;
  } catch {
    return undefined;
  }
}

/** A reporter by built-in name, module path or package name; the module's default export is a reporter or a factory. */
export async function loadReporter(spec: string, context: ReporterContext): Promise<Reporter> {
  const builtin = builtinReporters[spec as keyof typeof builtinReporters];
  if (builtin) return builtin.reporter(context);
  const url = resolveModule(spec);
  if (!url) {
    if (looksLikePath(spec)) throw errors.reporterLoad(spec, `no file at ${path.resolve(spec)}`);
    throw errors.unknownReporter(spec, Object.keys(builtinReporters));
  }
  let module: { default?: unknown };
  try {
    module = (await import(url)) as { default?: unknown };
  } catch (error) {
    throw errors.reporterLoad(spec, messageOf(error), error);
  }
  const exported = module.default;
  let reporter: unknown = exported;
  if (typeof exported === 'function') {
    try {
      reporter = await (exported as ReporterFactory)(context);
    } catch (error) {
      throw errors.reporterLoad(spec, `its factory threw: ${messageOf(error)}`, error);
    }
  }
  if (!isReporter(reporter)) {
    throw errors.reporterLoad(
      spec,
      'its default export is neither a reporter (an object with onRunStart, onResult or onRunEnd) nor a factory returning one',
    );
  }
  // keep the user's object (and its `this`) intact; only give it a name for error messages
  const hooks = reporter as Required<Pick<Reporter, (typeof HOOKS)[number]>>;
  return {
    name: reporter.name ?? spec,
    ...Object.fromEntries(HOOKS.filter((hook) => typeof hooks[hook] === 'function').map((hook) => [hook, hooks[hook].bind(reporter)])),
  };
}
