import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { messageOf, describeIssue, errors, unwrapSecrets } from '@bench/core';
import { configSchemaBeforeEngines, type BenchConfigOutput } from './schema.js';

export const CONFIG_FILES = ['bench.config.ts', 'bench.config.mts', 'bench.config.mjs', 'bench.config.js', 'bench.config.json'];

export interface LoadedConfig {
  /** Absolute path of the config file. */
  readonly file: string;
  /** Its folder: relative paths in the config resolve against it. */
  readonly dir: string;
  readonly config: BenchConfigOutput;
}

const firstLine = (error: unknown) => messageOf(error).split('\n')[0]?.trim() ?? '';

// TypeScript and modern JavaScript load through jiti (what ESLint uses for its TypeScript configs): no build step. It
// loads with the first such config, not with every bench command (25 ms of CPU at each start).
async function importConfig(file: string): Promise<unknown> {
  if (file.endsWith('.json')) return JSON.parse(readFileSync(file, 'utf8'));
  if (/\.m?js$/.test(file)) return ((await import(pathToFileURL(file).href)) as { default?: unknown }).default;
  const { createJiti } = await import('jiti');
  return createJiti(pathToFileURL(file).href, { moduleCache: false }).import(file, { default: true });
}

/** Validates a config given as an object (the API's `run({ config })`); relative paths resolve against `cwd`. */
export function inlineConfig(config: unknown, cwd: string = process.cwd()): LoadedConfig {
  const parsed = configSchemaBeforeEngines.safeParse(unwrapSecrets(config));
  if (!parsed.success) throw errors.config('(given to run())', describeIssue(parsed.error.issues[0]!));
  return { file: path.join(cwd, '(inline config)'), dir: cwd, config: parsed.data };
}

/** The config named by --config, or bench.config.* in `cwd`; undefined when there is none. */
export async function loadConfig(options: { file?: string; cwd?: string } = {}): Promise<LoadedConfig | undefined> {
  const cwd = options.cwd ?? process.cwd();
  let file: string | undefined;
  if (options.file !== undefined) {
    file = path.resolve(cwd, options.file);
    if (!existsSync(file)) throw errors.config(options.file, 'no such file');
  } else {
    file = CONFIG_FILES.map((name) => path.join(cwd, name)).find((candidate) => existsSync(candidate));
    if (!file) return undefined;
  }
  const shown = path.relative(cwd, file) || file;
  let exported: unknown;
  try {
    exported = await importConfig(file);
  } catch (error) {
    throw errors.config(shown, `it cannot be loaded: ${firstLine(error)}`, error);
  }
  if (typeof exported !== 'object' || exported === null || Array.isArray(exported)) {
    throw errors.config(
      shown,
      'its default export must be an object, e.g. `export default defineConfig({ targets: [...], scenarios: [...] })`',
    );
  }
  // `{ "$secret": "..." }` anywhere: the value, marked secret (a TypeScript config says secret('...'))
  const parsed = configSchemaBeforeEngines.safeParse(unwrapSecrets(exported));
  if (!parsed.success) throw errors.config(shown, describeIssue(parsed.error.issues[0]!));
  return { file, dir: path.dirname(file), config: parsed.data };
}
