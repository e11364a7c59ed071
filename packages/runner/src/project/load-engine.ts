import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { errors, type LoadEngine } from '@bench/core';
import { importDefault } from './load-module.js';

const HOOKS = ['available', 'supports', 'run'] as const;

const isLoadEngine = (value: unknown): value is LoadEngine =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Record<string, unknown>).name === 'string' &&
  HOOKS.every((hook) => typeof (value as Record<string, unknown>)[hook] === 'function');

// A file path (./x.mjs, /abs/x.ts, x.js); anything else is an engine name or a package name.
const isFileSpec = (spec: string): boolean => spec.startsWith('.') || path.isAbsolute(spec) || /\.[mc]?[jt]s$/.test(spec);

// A file is resolved from baseDir; a package name as if imported from there. Undefined: no such module.
function resolveEngineModule(spec: string, baseDir: string): string | undefined {
  if (isFileSpec(spec)) {
    const file = path.resolve(baseDir, spec);
    if (!existsSync(file)) throw errors.engineLoad(spec, `no file at ${file}`);
    return file;
  }
  try {
    return createRequire(path.join(baseDir, 'index.js')).resolve(spec);
  } catch {
    return undefined;
  }
}

/**
 * An engine by name (from `engines`) or by module path / package name: the module's default export
 * is a LoadEngine ({ name, description, available, supports, run }) or a function returning one.
 */
export async function loadEngine(spec: string, engines: readonly LoadEngine[], baseDir: string): Promise<LoadEngine> {
  const named = engines.find((e) => e.name === spec);
  if (named) return named;
  const file = resolveEngineModule(spec, baseDir);
  if (!file)
    throw errors.unknownEngine(
      spec,
      engines.map((e) => e.name),
    );
  let exported: unknown;
  try {
    exported = await importDefault(file);
    if (typeof exported === 'function') exported = await (exported as () => unknown)();
  } catch (error) {
    throw errors.engineLoad(spec, error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error), error);
  }
  if (!isLoadEngine(exported))
    throw errors.engineLoad(
      spec,
      `its default export is not a load engine ({ name, description, available, supports, run }) nor a function returning one`,
    );
  return exported;
}

/** The engines plus the one `spec` names, and that engine's name (a module is loaded once and added). */
export async function withEngine(
  engines: readonly LoadEngine[],
  spec: string,
  baseDir: string,
): Promise<{ engines: readonly LoadEngine[]; name: string }> {
  const engine = await loadEngine(spec, engines, baseDir);
  if (engines.includes(engine)) return { engines, name: engine.name };
  if (engines.some((e) => e.name === engine.name))
    throw errors.engineLoad(spec, `its name "${engine.name}" is taken by another engine; choose another`);
  return { engines: [...engines, engine], name: engine.name };
}
