import { errors, longFlag, rangeText, withinRange, type OptionTable } from '@bench/core';
import { assertHostOptions } from './host-options.js';
import { runOptionDeclarations, type RunOptionInput, type RunOptions, highestConcurrency } from './declarations.js';

type Layer = Readonly<Record<string, unknown>>;

/**
 * The options of a run from its sources, highest first (flags, then the config's defaults, then
 * the declared defaults). A source that sets one of an exclusive pair (-d / -n) replaces both from
 * the sources below it.
 */
export function resolveRunOptions(
  selection: { readonly scenarios: readonly string[]; readonly targets?: readonly string[] },
  ...layers: ReadonlyArray<RunOptionInput | undefined>
): RunOptions {
  return resolveRunOptionsIn(runOptionDeclarations, selection, ...layers);
}

/** The same with a project's option table: bench's own options and those of the config's engines. */
export function resolveRunOptionsIn(
  table: OptionTable,
  selection: { readonly scenarios: readonly string[]; readonly targets?: readonly string[] },
  ...layers: ReadonlyArray<Layer | undefined>
): RunOptions {
  const keys = Object.keys(table);
  const merged: Record<string, unknown> = {};
  const decided = new Set<string>();
  for (const layer of layers) {
    if (!layer) continue;
    const given = keys.filter((key) => layer[key] !== undefined && !decided.has(key));
    for (const key of given) {
      merged[key] = layer[key];
      decided.add(key);
      const partner = table[key]!.excludes;
      if (partner && !decided.has(partner)) decided.add(partner);
    }
  }
  for (const key of keys) {
    const declaration = table[key]!;
    if (merged[key] !== undefined || declaration.default === undefined) continue;
    const partner = declaration.excludes;
    if (partner && merged[partner] !== undefined) continue;
    merged[key] = declaration.default;
  }
  // what the API gave is checked here; flags and config values were checked as they were read
  for (const key of keys) {
    const { range, flags } = table[key]!;
    if (range && !withinRange(merged[key], range)) throw errors.badNumber(longFlag(flags), JSON.stringify(merged[key]), rangeText(range));
  }
  return validateRunOptions({
    ...(merged as RunOptionInput),
    scenarios: selection.scenarios,
    ...(selection.targets && selection.targets.length > 0 ? { targets: selection.targets } : {}),
  } as RunOptions);
}

const REQUEST_OPTIONS = ['method', 'headers', 'body', 'bodyFile', 'expectStatus'] as const;

/** Checks the combination of options; each value was checked as it was parsed. */
export function validateRunOptions(options: RunOptions): RunOptions {
  if (options.durationSeconds !== undefined && options.requests !== undefined) {
    throw errors.conflictingOptions('-d (duration) and -n (requests) cannot be used together: choose one way to bound the run');
  }
  if (options.body !== undefined && options.bodyFile !== undefined)
    throw errors.conflictingOptions('--body and --body-file cannot be used together: choose one');
  if (options.url === undefined) {
    const stray = REQUEST_OPTIONS.find((key) => options[key] !== undefined);
    if (stray)
      throw errors.conflictingOptions(
        `${runOptionDeclarations[stray].flags.split(' ')[0]} applies to a server named with --url; scenarios define their own requests`,
      );
    if (options.scenarios.length === 0) {
      throw errors.usage(
        'name at least one scenario, e.g. `bench run hello` (see `bench list`), list them in bench.config, or drive a running server with --url',
      );
    }
  } else if (options.scenarios.length > 0) {
    throw errors.conflictingOptions(
      `--url drives one request of a running server; it cannot be combined with scenario names (${options.scenarios.join(', ')})`,
    );
  }
  assertHostOptions(options);
  if (options.serverHost !== undefined && options.url !== undefined)
    throw errors.conflictingOptions('--url drives a server that is already running; --server-host starts the stacks on a host: choose one');
  if (options.serverHost !== undefined && options.profile)
    throw errors.usage('--profile samples the stacks on this machine; it cannot profile them on --server-host yet: profile on one machine');
  if (options.concurrency.length === 0) throw errors.usage('-c needs at least one concurrency level');
  const maxConcurrency = highestConcurrency(options);
  if (options.requests !== undefined && options.requests < maxConcurrency) {
    throw errors.conflictingOptions(
      `-n ${options.requests} is smaller than -c ${maxConcurrency}: every connection needs at least one request; raise -n or lower -c`,
    );
  }
  if (options.rate !== undefined && options.requests !== undefined) {
    throw errors.conflictingOptions('--rate holds a constant arrival rate for a duration: use -d with it, not -n');
  }
  return options;
}
